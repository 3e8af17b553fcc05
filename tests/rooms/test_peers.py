"""Two DuelServices on one store and one bus, as two processes on one database and Redis."""

import asyncio
import copy
import random
from typing import Any

import pytest

from app.messaging.pubsub import MemoryPubSub
from app.rooms.duel import DuelService
from app.rooms.errors import NoSuchMatch, NotReadNow
from app.rooms.store import MemoryStore, StoredGame, StoredMatch, StoreError, Totals
from app.wire.game import GameView
from bench.bot import as_read, legal_moves
from tests.support.clock import FakeClock
from tests.support.duel_layouts import RULES, WINNING_LINE, near_finished_layout
from tests.support.frames import as_json, kind

ANN, BOB = 1, 2
MATCH = 10


async def no_follow(channel: str) -> None:
    return None


def two_processes() -> tuple[MemoryStore, DuelService, DuelService]:
    store = one_match()
    bus, clock = MemoryPubSub(), FakeClock()
    one = DuelService(store=store, pubsub=bus, clock=clock, peers=True)
    two = DuelService(store=store, pubsub=bus, clock=clock, peers=True)
    return store, one, two


def one_match() -> MemoryStore:
    store = MemoryStore()
    store.add_match(StoredMatch(
        match_id=MATCH, rules=RULES, time_limit_s=600.0,
        games=[StoredGame(101, ANN), StoredGame(102, BOB)],
        deal={"layout": near_finished_layout()},
    ))
    return store


async def settle() -> None:
    for _ in range(5):  # let the listeners of the other "process" run
        await asyncio.sleep(0)


async def test_a_change_on_one_process_is_seen_by_the_others_copy() -> None:
    _, one, two = two_processes()
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    for seq, action in enumerate(WINNING_LINE[:3], start=1):
        ack = await one.act(player_id=ANN, match_id=MATCH, seq=seq, action=action)
        assert kind(ack) == "ack"
    await settle()
    seen = await two.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert seen.seq == 3
    assert seen.view == ack.view
    await one.close()
    await two.close()


async def ann_on_both() -> tuple[MemoryStore, DuelService, DuelService, dict[str, Any]]:
    """Ann's game opened through both processes (two tabs); her snapshot."""
    store, one, two = two_processes()
    start = await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    return store, one, two, start


async def test_a_stale_process_loses_the_seq_race_and_answers_from_the_log() -> None:
    store, one, two, start = await ann_on_both()
    other = next(m for m in legal_moves(as_read(start.view), manual_flip=True)
                 if m != WINNING_LINE[0])  # legal at the start too, but a different move
    first = await one.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    # No yield in between: process two still holds its copy from before seq 1.
    late = await two.act(player_id=ANN, match_id=MATCH, seq=1, action=other)
    assert kind(first) == "ack" and not first.duplicate
    # Another action with a seq already taken: refused (not an ack of someone else's
    # step), with the log's view to resync on.
    assert kind(late) == "reject" and late.code == "seq_taken", late
    assert late.view == first.view and late.next_seq == 2
    assert [a.seq for a in store.matches[MATCH].games[0].actions] == [1]
    assert store.matches[MATCH].games[0].actions[0].action == WINNING_LINE[0]
    # The same action resent there is the same step: a duplicate answer.
    resent = await two.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert kind(resent) == "ack" and resent.duplicate is True
    await one.close()
    await two.close()


async def test_a_stale_copy_takes_the_next_seq_from_the_log_not_as_out_of_turn() -> None:
    # Ann's tab on process two saw seq 1 (made on process one) before process two heard
    # of it: its seq 2 is past that copy's next seq, yet it is the log's next one.
    store, one, two, _ = await ann_on_both()
    await one.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    # No yield in between: process two still holds its copy from before seq 1.
    next_one = await two.act(player_id=ANN, match_id=MATCH, seq=2, action=WINNING_LINE[1])
    assert kind(next_one) == "ack" and next_one.view.actions == 2, next_one
    assert [a.seq for a in store.matches[MATCH].games[0].actions] == [1, 2]
    # A seq truly out of turn is still refused, once the copy is fresh.
    early = await two.act(player_id=ANN, match_id=MATCH, seq=5, action=WINNING_LINE[2])
    assert kind(early) == "reject" and early.code == "bad_seq" and early.next_seq == 3
    await one.close()
    await two.close()


async def test_an_action_made_on_a_fresh_copy_holds_that_copy_until_it_is_carried_out(
) -> None:
    # The step is the fresh copy's: its effects, published as the block is left, must
    # come before that copy's next step of the seat, so its lock is held meanwhile (the
    # stale copy's too, as it was taken first).
    _, one, two, _ = await ann_on_both()
    stale = await two.match(MATCH)
    await one.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    # No yield in between: process two still holds its copy from before seq 1.
    async with two.acting(player_id=ANN, match_id=MATCH, seq=2,
                          action=WINNING_LINE[1]) as reply:
        fresh = await two.match(MATCH)
        assert fresh is not stale and kind(reply) == "ack" and reply.seq == 2
        assert fresh.lock(ANN).locked() and stale.lock(ANN).locked()
    assert not fresh.lock(ANN).locked() and not stale.lock(ANN).locked()
    third = await two.act(player_id=ANN, match_id=MATCH, seq=3, action=WINNING_LINE[2])
    assert kind(third) == "ack" and third.view.actions == 3, third
    await one.close()
    await two.close()


async def test_a_finish_resent_to_a_stale_copy_answers_with_the_stored_end() -> None:
    # Ann finishes through process one, which dies before its news leaves (here: the
    # two processes share no bus); her resend reaches process two, whose copy still has
    # the game in progress. The answer is the stored finish (its time), not a second
    # finish made later.
    store, clock = one_match(), FakeClock()
    one = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    two = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    start = await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await clock.advance(1.25)
    finished_at = clock()
    done = await one.finish(player_id=ANN, match_id=MATCH, seq=1)
    assert kind(done) == "ack" and done.status == "finished"
    await clock.advance(0.75)  # the reconnection takes a while: the clock runs on
    resent = await two.finish(player_id=ANN, match_id=MATCH, seq=1)
    assert kind(resent) == "ack" and resent.duplicate is True, resent
    assert resent.status == "finished"
    assert resent.time_left_ms == done.time_left_ms == start.time_left_ms - 1250
    assert store.matches[MATCH].games[0].ended_at == finished_at
    await one.close()
    await two.close()


async def test_a_replay_asked_of_a_copy_that_missed_the_end_reads_the_log() -> None:
    # Both games end through process one, whose news never reaches process two (here:
    # no shared bus; in the chaos test, a Redis restart). Two's copy still has them in
    # progress: a replay asked there said "replays open once both games of the match
    # are over" of a finished match. The log decides before a refusal.
    store, clock = one_match(), FakeClock()
    one = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    two = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    for player_id in (ANN, BOB):
        await one.open_game(player_id=player_id, match_id=MATCH, follow=no_follow)
        await two.open_game(player_id=player_id, match_id=MATCH, follow=no_follow)
    for player_id in (ANN, BOB):
        done = await one.finish(player_id=player_id, match_id=MATCH, seq=1)
        assert kind(done) == "ack" and done.status == "finished"
    assert store.matches[MATCH].finished
    replay = await two.replay(viewer_id=ANN, match_id=MATCH, player_id=BOB)
    assert kind(replay) == "replay" and as_json(replay)["record"]["moves"] == []
    await one.close()
    await two.close()


async def test_opening_on_a_copy_that_missed_news_answers_from_the_log() -> None:
    # Ann's other tab heard of her steps (and of her finish) before its process did: its
    # open_game answers with the game as logged, not with the copy one step back.
    store, clock = one_match(), FakeClock()
    one = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    two = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    acked = [await one.act(player_id=ANN, match_id=MATCH, seq=seq, action=action)
             for seq, action in enumerate(WINNING_LINE[:2], start=1)]
    seen = await two.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert (seen.seq, seen.view) == (2, acked[-1].view)
    done = await one.finish(player_id=ANN, match_id=MATCH, seq=3)
    seen = await two.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert seen.status == "finished", seen  # (its seq counts the logged actions: 2)
    assert seen.time_left_ms == done.time_left_ms
    await one.close()
    await two.close()


async def test_the_match_is_settled_when_its_last_game_ends_on_another_process() -> None:
    store, one, two = two_processes()
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    await settle()
    await two.finish(player_id=BOB, match_id=MATCH, seq=1)
    await settle()
    done = await one.finish(player_id=ANN, match_id=MATCH, seq=1)
    assert done.status == "finished"
    await settle()
    assert store.matches[MATCH].finished
    assert one.result(MATCH) is not None
    await one.close()
    await two.close()


async def test_without_peers_nothing_is_published_on_sync_channels() -> None:
    store = MemoryStore()
    store.add_match(StoredMatch(
        match_id=MATCH, rules=RULES, time_limit_s=600.0,
        games=[StoredGame(101, ANN), StoredGame(102, BOB)],
        deal={"layout": near_finished_layout()},
    ))
    bus = MemoryPubSub()
    listener = await bus.subscribe(f"sync:{MATCH}")
    alone = DuelService(store=store, pubsub=bus, clock=FakeClock())
    await alone.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await alone.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    await listener.close()
    assert [m async for m in listener] == []
    await alone.close()


class EndsRecorded(MemoryStore):
    """A MemoryStore that keeps the totals each game's end was recorded with."""

    def __init__(self) -> None:
        super().__init__()
        self.ends: dict[int, tuple[str, float, Totals]] = {}

    async def end_game(self, game_id: int, reason: str, at: float, progress: Totals) -> None:
        if game_id not in self.ends:
            self.ends[game_id] = (reason, at, progress)
        await super().end_game(game_id, reason, at, progress)


async def test_a_stale_copys_time_out_records_the_logs_totals_not_its_own() -> None:
    # Process two loaded the match before Ann played and never heard of her moves (its
    # own bus: every sync message missed); process one then died. When two's timer
    # fires, the game ends with what the log holds, not with two's copy (0 actions).
    store, clock = EndsRecorded(), FakeClock()
    limit = 0.3
    store.add_match(StoredMatch(
        match_id=MATCH, rules=RULES, time_limit_s=limit,
        games=[StoredGame(101, ANN), StoredGame(102, BOB)],
        deal={"layout": near_finished_layout()},
    ))
    one = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    two = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    started = clock.now
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)  # the stale copy
    for seq, action in enumerate(WINNING_LINE[:3], start=1):
        ack = await one.act(player_id=ANN, match_id=MATCH, seq=seq, action=action)
        assert kind(ack) == "ack"
    await one.close()  # its timers die with it
    await clock.advance(limit + 1)  # two's timers fire
    await settle()
    reason, at, totals = store.ends[101]
    assert reason == "timed_out"
    assert at == started + limit  # at its deadline
    assert totals.actions == 3, totals
    assert totals.score == ack.score, (totals, ack.score)
    assert store.matches[MATCH].finished  # both games over (Bob's too): settled once
    await two.close()


async def test_a_stale_copys_table_expiry_ends_only_the_games_the_log_says_unopened() -> None:
    # Process two loaded the match before Ann opened her game and missed every sync
    # message since (its own bus). When the table expires, its copy says nobody opened:
    # the log says Ann did, so only Bob's game ends.
    store, clock = EndsRecorded(), FakeClock()
    expires_at = clock.now + 30
    store.add_match(StoredMatch(
        match_id=MATCH, rules=RULES, time_limit_s=600.0,
        games=[StoredGame(101, ANN), StoredGame(102, BOB)],
        deal={"layout": near_finished_layout()}, expires_at=expires_at,
    ))
    one = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    two = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock, peers=True)
    await two.match(MATCH)  # the stale copy, with its expiry timer
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    ack = await one.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert kind(ack) == "ack"
    await one.close()
    await clock.advance(31)
    await settle()
    assert store.ends == {102: ("timed_out", expires_at, store.ends[102][2])}
    assert store.ends[102][2].actions == 0
    assert (await two.match(MATCH)).game_of(ANN).status == "playing"
    await two.close()


# --------------------------------------------------------------------------- following


class LoadsCounted(MemoryStore):
    """A MemoryStore that counts how often a match is read back (a copy rebuilt)."""

    def __init__(self) -> None:
        super().__init__()
        self.loads = 0

    async def load_match(self, match_id: int) -> StoredMatch | None:
        self.loads += 1
        return await super().load_match(match_id)


def dealt_processes(deal: dict[str, Any] | None = None
                    ) -> tuple[LoadsCounted, MemoryPubSub, DuelService, DuelService]:
    """Two processes on one store and bus, on a match dealt as any table's (or ``deal``)."""
    store = LoadsCounted()
    store.add_match(StoredMatch(
        match_id=MATCH, rules=RULES if deal else {"preset": "duel", "suits": 2},
        time_limit_s=600.0, games=[StoredGame(101, ANN), StoredGame(102, BOB)], deal=deal,
    ))
    bus, clock = MemoryPubSub(), FakeClock()
    return (store, bus, DuelService(store=store, pubsub=bus, clock=clock, peers=True),
            DuelService(store=store, pubsub=bus, clock=clock, peers=True))


async def same_as_the_log(store: MemoryStore, copy: DuelService) -> None:
    """``copy``'s cached match holds each seat as a process reading the log would."""
    fresh = DuelService(store=store, pubsub=MemoryPubSub(), clock=FakeClock())
    held, rebuilt = await copy.match(MATCH), await fresh.match(MATCH)
    for seat, truth in zip(held.games, rebuilt.games, strict=True):
        assert (seat.seq, seat.actions, seat.status) == (truth.seq, truth.actions, truth.status)
        assert seat.game.state == truth.game.state
        assert seat.game.score == truth.game.score
        assert seat.last_ack == truth.last_ack  # a resend there is answered the same
    await fresh.close()


def next_action(view: GameView | None, pick: random.Random) -> dict[str, Any]:
    """A random action, legal or not (an illegal one is refused and takes no seq)."""
    moves = legal_moves(as_read(view), manual_flip=True)
    roll = pick.random()
    if moves and roll < 0.7:
        return pick.choice(moves)
    if roll < 0.8:
        return {"op": "undo"}
    if roll < 0.9:
        return {"op": "flip", "col": pick.randrange(10)}
    return {"op": "deal"}


@pytest.mark.parametrize("seed", range(4))
async def test_the_other_process_follows_each_action_without_reading_the_log(seed: int
                                                                             ) -> None:
    store, _, one, two = dealt_processes()
    start = await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    await settle()
    await one.match(MATCH)
    held, loads = await two.match(MATCH), store.loads
    pick, view, seq = random.Random(seed), start.view, 0
    for _ in range(60):
        answer = await one.act(player_id=ANN, match_id=MATCH, seq=seq + 1,
                               action=next_action(view, pick))
        view = answer.view
        if kind(answer) == "ack":
            seq += 1
        await settle()
        assert (await two.match(MATCH)) is held  # followed, not dropped
        assert held.game_of(ANN).seq == seq
    assert seq > 20
    assert store.loads == loads  # the other process never read the match back
    await same_as_the_log(store, two)
    # And it plays on with its copy: Bob's action there, Ann's next one here.
    bob = await two.act(player_id=BOB, match_id=MATCH, seq=1, action={"op": "deal"})
    assert kind(bob) == "ack", bob
    await one.close()
    await two.close()


async def test_a_game_opened_on_another_process_is_followed_without_reading_the_log(
) -> None:
    store, _, one, two = dealt_processes()
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    held = await one.match(MATCH)
    await two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    await settle()
    assert (await one.match(MATCH)) is held  # followed, not dropped
    assert store.loads == 2  # each process read the match once
    bob = held.game_of(BOB)
    assert bob.started_at is not None and BOB in held.timers  # his clock runs here too
    assert bob.started_at == (await two.match(MATCH)).game_of(BOB).started_at
    fresh = DuelService(store=store, pubsub=MemoryPubSub(), clock=FakeClock())
    assert (await fresh.match(MATCH)).game_of(BOB).started_at == bob.started_at
    await fresh.close()
    await same_as_the_log(store, one)
    # And Bob plays on the copy that followed his opening.
    ack = await one.act(player_id=BOB, match_id=MATCH, seq=1, action={"op": "deal"})
    assert kind(ack) == "ack", ack
    await one.close()
    await two.close()


async def test_an_opening_the_copy_has_moved_past_drops_it() -> None:
    store, bus, one, two = dealt_processes({"layout": near_finished_layout()})
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    await settle()
    held = await two.match(MATCH)
    # News of Ann's opening, which two's copy has already: nothing to do.
    await bus.publish(f"sync:{MATCH}", {"origin": "a third process", "ended": False,
                                        "player": ANN, "opened_at": 5.0})
    await settle()
    assert (await two.match(MATCH)) is held
    # An opening of a game that holds actions on the copy: news missed, the log decides.
    await one.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    await settle()
    fresh_seat = held.game_of(ANN).evolve(started_at=None)
    held.value = held.value.with_seat(fresh_seat)  # as if the opening had been missed
    await bus.publish(f"sync:{MATCH}", {"origin": "a third process", "ended": False,
                                        "player": ANN, "opened_at": 5.0})
    await settle()
    assert not two.cached(MATCH) or (await two.match(MATCH)) is not held
    await same_as_the_log(store, two)
    await one.close()
    await two.close()


async def test_a_missed_action_makes_the_other_process_rebuild_from_the_log() -> None:
    store, bus, one, two = dealt_processes({"layout": near_finished_layout()})
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    await settle()
    held = await two.match(MATCH)
    # News of seq 3 while the copy is at 0: the news of 1 and 2 were lost on the way.
    await one.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    await one.act(player_id=ANN, match_id=MATCH, seq=2, action=WINNING_LINE[1])
    await bus.publish(f"sync:{MATCH}", {"origin": "a third process", "ended": False,
                                        "player": ANN, "seq": 5, "action": WINNING_LINE[4],
                                        "at": 0.0})
    await settle()
    assert not two.cached(MATCH) or (await two.match(MATCH)) is not held
    await same_as_the_log(store, two)
    assert (await two.match(MATCH)).game_of(ANN).seq == 2
    await one.close()
    await two.close()


@pytest.mark.parametrize("news", [
    {"ended": False, "player": ANN, "seq": 1, "action": {"op": "flip", "col": 42}, "at": 0},
    {"ended": False, "player": 999, "seq": 1, "action": {"op": "deal"}, "at": 0},
    {"ended": False, "player": ANN, "seq": "1", "action": {"op": "deal"}, "at": 0},
    {"ended": False},
    {"ended": False, "player": ANN, "opened_at": True},
    {"ended": False, "player": 999, "opened_at": 5.0},
])
async def test_news_the_copy_cannot_follow_drops_it_and_the_log_decides(
        news: dict[str, Any]) -> None:
    store, bus, one, two = dealt_processes({"layout": near_finished_layout()})
    await two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    held = await two.match(MATCH)
    await bus.publish(f"sync:{MATCH}", {"origin": "a third process", **news})
    await settle()
    assert (await two.match(MATCH)) is not held
    await same_as_the_log(store, two)
    await one.close()
    await two.close()


class ReadsFail(MemoryStore):
    """A store whose reads fail while ``away`` (a database restart, connections cut)."""

    away = False

    async def load_match(self, match_id: int) -> StoredMatch | None:
        if self.away:
            raise StoreError("database error: ConnectionDoesNotExistError")
        return await super().load_match(match_id)

    async def unfinished_match_ids(self, player_id: int | None = None) -> list[int]:
        if self.away:
            raise StoreError("database error: InternalClientError")
        return await super().unfinished_match_ids(player_id)


async def test_a_match_that_cannot_be_read_is_refused_as_unavailable_and_read_later() -> None:
    store = ReadsFail()
    store.matches = one_match().matches
    bus, clock = MemoryPubSub(), FakeClock()
    duels = DuelService(store=store, pubsub=bus, clock=clock, peers=True)
    store.away = True
    for ask in (duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow),
                duels.spectate(viewer_id=BOB, match_id=MATCH, player_id=ANN, follow=no_follow),
                duels.resync(player_id=ANN, follow=no_follow)):
        with pytest.raises(NotReadNow) as refused:
            await ask
        assert refused.value.code == "unavailable"  # "send it again", not "internal"
    assert not duels.cached(MATCH)  # no half-read copy kept
    store.away = False
    opened = await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert kind(opened) == "snapshot" and opened.seq == 0
    await duels.close()


async def test_an_action_whose_fresh_copy_cannot_be_read_is_not_stored_and_changes_nothing(
) -> None:
    store = ReadsFail()
    store.matches = one_match().matches
    bus, clock = MemoryPubSub(), FakeClock()
    one = DuelService(store=store, pubsub=bus, clock=clock, peers=True)
    two = DuelService(store=store, pubsub=bus, clock=clock, peers=True)
    for duels in (one, two):
        await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await one.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    store.away = True  # process two must read the log for seq 2, and cannot
    answers: list[dict[str, Any]] = []
    async with two.acting(player_id=ANN, match_id=MATCH, seq=2,
                          action=WINNING_LINE[1]) as late:
        answers.append(late)
    assert kind(late) == "reject" and late.code == "not_stored", late
    assert answers == [late]  # one answer, as for any action
    assert [a.seq for a in store.matches[MATCH].games[0].actions] == [1]
    store.away = False
    again = await two.act(player_id=ANN, match_id=MATCH, seq=2, action=WINNING_LINE[1])
    assert kind(again) == "ack" and again.view.actions == 2, again
    await one.close()
    await two.close()


class HeldLoads(MemoryStore):
    """A store whose reads of the held matches wait until released; counts every read."""

    def __init__(self) -> None:
        super().__init__()
        self.held: dict[int, asyncio.Event] = {}
        self.reads: list[int] = []

    async def load_match(self, match_id: int) -> StoredMatch | None:
        self.reads.append(match_id)
        if match_id in self.held:
            await self.held[match_id].wait()
        return await super().load_match(match_id)


async def test_matches_load_side_by_side_and_each_is_read_once() -> None:
    # After a worker dies its players come back together: one slow read must not hold
    # up the others' matches, and two players of one match share its read.
    store = HeldLoads()
    store.matches = one_match().matches
    other = MATCH + 1
    store.add_match(StoredMatch(
        match_id=other, rules=RULES, time_limit_s=600.0,
        games=[StoredGame(201, 3), StoredGame(202, 4)], deal={"layout": near_finished_layout()},
    ))
    store.held[MATCH] = asyncio.Event()
    duels = DuelService(store=store, pubsub=MemoryPubSub(), clock=FakeClock(), peers=True)
    ann = asyncio.create_task(duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow))
    bob = asyncio.create_task(duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow))
    await settle()
    third = await asyncio.wait_for(
        duels.open_game(player_id=3, match_id=other, follow=no_follow), 1.0)
    assert kind(third) == "snapshot" and not ann.done()  # not behind the held read
    store.held[MATCH].set()
    assert [kind(await ann), kind(await bob)] == ["snapshot", "snapshot"]
    assert store.reads.count(MATCH) == 1 and store.reads.count(other) == 1
    await duels.close()


class ReadThenHeld(HeldLoads):
    """A store whose read of a held match is taken at once and returned only when
    released: what another process logs meanwhile is not in it (as a read that raced a
    commit). Counts every read."""

    async def load_match(self, match_id: int) -> StoredMatch | None:
        self.reads.append(match_id)
        read = copy.deepcopy(self.matches.get(match_id))
        if match_id in self.held:
            await self.held.pop(match_id).wait()
        return read


async def test_news_logged_while_a_copy_is_read_reaches_that_copy() -> None:
    # Process two reads the match while process one logs Ann's first action: the news of
    # it must reach the copy being read (heard before the read, applied after it), or
    # the next one does not follow on and drops the copy (under load, a rebuild every
    # few actions, and answers that wait for them).
    store, theirs = ReadThenHeld(), MemoryStore()  # two's reads counted apart
    store.matches = theirs.matches = one_match().matches
    bus, clock = MemoryPubSub(), FakeClock()
    one = DuelService(store=theirs, pubsub=bus, clock=clock, peers=True)
    two = DuelService(store=store, pubsub=bus, clock=clock, peers=True)
    await one.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    store.held[MATCH] = release = asyncio.Event()
    bob = asyncio.create_task(two.open_game(player_id=BOB, match_id=MATCH, follow=no_follow))
    await settle()
    assert not bob.done()  # two's read is taken, not returned yet
    first = await one.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert kind(first) == "ack"
    await settle()
    release.set()
    assert kind(await bob) == "snapshot"
    await settle()
    held, reads = await two.match(MATCH), store.reads.count(MATCH)
    assert held.game_of(ANN).seq == 1  # the news heard during the read, applied after it
    await one.act(player_id=ANN, match_id=MATCH, seq=2, action=WINNING_LINE[1])
    await settle()
    assert (await two.match(MATCH)) is held and held.game_of(ANN).seq == 2  # followed
    assert store.reads.count(MATCH) == reads  # and not read again
    await same_as_the_log(store, two)
    await one.close()
    await two.close()


async def test_a_copy_that_cannot_be_read_stops_listening_for_its_news() -> None:
    store = ReadThenHeld()  # no match 10 in it: the read finds nothing
    bus = MemoryPubSub()
    two = DuelService(store=store, pubsub=bus, clock=FakeClock(), peers=True)
    with pytest.raises(NoSuchMatch):
        await two.match(MATCH)
    assert bus.subscriber_count(f"sync:{MATCH}") == 0
    await two.close()
