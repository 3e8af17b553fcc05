"""The live duel service on the in-memory store: seqs, clocks, ends, spectating, restarts."""

import asyncio
import gc
import weakref
from typing import Any

import msgspec
import pytest

from app.engine.actions import action_from_json
from app.engine.game import is_legal
from app.messaging import channels
from app.messaging.pubsub import MemoryPubSub
from app.rooms.duel import (
    DuelService,
    GameIsOver,
    NoSuchMatch,
    NotOpened,
    NotSeated,
    ReplayNotReady,
    SpectateRefused,
)
from app.rooms.frames import iso_time
from app.rooms.store import MemoryStore, StoredGame, StoredMatch, StoreError
from app.wire.duel import WatchEvent
from app.wire.events import Moved
from app.wire.frames import encode
from tests.support.clock import FakeClock
from tests.support.duel_layouts import RULES, WINNING_LINE, near_finished_layout
from tests.support.frames import as_json, kind

ANN, BOB, EVE = 1, 2, 3
MATCH = 10


def make_store(time_limit: float = 600.0) -> MemoryStore:
    store = MemoryStore()
    store.add_match(StoredMatch(
        match_id=MATCH, rules=RULES, time_limit_s=time_limit,
        games=[StoredGame(101, ANN), StoredGame(102, BOB)],
        deal={"layout": near_finished_layout()},
    ))
    return store


async def no_follow(channel: str) -> None:
    return None


def service(store: MemoryStore, clock: Any = None, pubsub: MemoryPubSub | None = None
            ) -> DuelService:
    return DuelService(store=store, pubsub=pubsub or MemoryPubSub(),
                       **({"clock": clock} if clock else {}))


async def test_open_game_starts_the_clock_once() -> None:
    clock = FakeClock()
    store = make_store()
    duels = service(store, clock)
    snapshot = await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert snapshot.status == "playing" and snapshot.seq == 0
    assert snapshot.time_left_ms == 600_000
    assert snapshot.opponent.status == "not_started"
    clock.now += 5
    again = await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert again.time_left_ms == 595_000
    assert store.matches[MATCH].games[0].started_at == 1_000_000.0
    await duels.close()


async def test_actions_are_logged_then_acknowledged_and_never_applied_twice() -> None:
    store = make_store()
    duels = service(store, FakeClock())
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    ack = await duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert kind(ack) == "ack" and ack.seq == 1 and ack.delta == -1
    assert ack.events == [Moved(1, 9, ["Ks"])]
    assert as_json(ack)["events"] == [{"kind": "moved", "from": 1, "to": 9, "cards": ["Ks"]}]
    assert [a.seq for a in store.matches[MATCH].games[0].actions] == [1]
    again = await duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert again.duplicate is True and again.view == ack.view
    assert len(store.matches[MATCH].games[0].actions) == 1
    await duels.close()


async def test_stale_ahead_and_illegal_actions_are_rejected_with_a_resync() -> None:
    duels = service(make_store(), FakeClock())
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    for seq, action in enumerate(WINNING_LINE[:3], start=1):
        await duels.act(player_id=ANN, match_id=MATCH, seq=seq, action=action)
    stale = await duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[3])
    assert stale.code == "stale_seq" and stale.next_seq == 4
    assert stale.view.actions == 3
    ahead = await duels.act(player_id=ANN, match_id=MATCH, seq=9, action=WINNING_LINE[3])
    assert ahead.code == "bad_seq"
    illegal = await duels.act(player_id=ANN, match_id=MATCH, seq=4,
                              action={"op": "move", "from": 5, "to": 6, "count": 1})
    assert illegal.code == "bad_count" and illegal.next_seq == 4
    bad = await duels.act(player_id=ANN, match_id=MATCH, seq=4, action={"op": "jump"})
    assert bad.code == "bad_action"
    ok = await duels.act(player_id=ANN, match_id=MATCH, seq=4, action=WINNING_LINE[3])
    assert kind(ok) == "ack" and ok.seq == 4
    await duels.close()


async def test_playing_before_opening_is_refused() -> None:
    duels = service(make_store(), FakeClock())
    reply = await duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert reply.code == "not_opened"
    with pytest.raises(NotSeated):
        await duels.open_game(player_id=EVE, match_id=MATCH, follow=no_follow)
    await duels.close()


class FailingStore(MemoryStore):
    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        raise StoreError("disk full")


async def test_an_action_the_log_refuses_is_not_applied() -> None:
    store = FailingStore()
    store.matches = make_store().matches
    duels = service(store, FakeClock())
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    reply = await duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert reply.code == "not_stored" and reply.view.actions == 0
    await duels.close()


class JournalPubSub(MemoryPubSub):
    """Notes each publish in ``happened``, the journal the answers are noted in too."""

    def __init__(self, happened: list[str]) -> None:
        super().__init__()
        self.happened = happened

    async def publish(self, channel: str, message: Any) -> None:
        self.happened.append(f"publish {kind(message)}")
        await super().publish(channel, message)


async def test_the_ack_is_had_once_durable_before_the_fan_out() -> None:
    happened: list[str] = []
    store = make_store()
    duels = service(store, FakeClock(), JournalPubSub(happened))
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    happened.clear()
    for seq, action in enumerate(WINNING_LINE, start=1):
        async with duels.acting(player_id=ANN, match_id=MATCH, seq=seq,
                                action=action) as reply:
            logged = len(store.matches[MATCH].games[0].actions)
            happened.append(f"answer {kind(reply)} {reply.seq} logged {logged}")
    answers = [h for h in happened if h.startswith("answer")]
    # Once per action, each after its own row is in the log.
    assert answers == [f"answer ack {seq} logged {seq}"
                       for seq in range(1, len(WINNING_LINE) + 1)]
    # Each ack before the progress it fans out; the winning one before the game_over.
    first = happened.index("answer ack 1 logged 1")
    assert happened[:first] == [] and happened[first + 1] == "publish progress"
    assert happened.index(answers[-1]) < happened.index("publish game_over")
    await duels.close()


async def test_a_refused_action_is_answered_once_and_publishes_nothing() -> None:
    happened: list[str] = []
    store = FailingStore()
    store.matches = make_store().matches
    duels = service(store, FakeClock(), JournalPubSub(happened))
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    happened.clear()
    answers: list[dict[str, Any]] = []
    async with duels.acting(player_id=ANN, match_id=MATCH, seq=1,
                            action=WINNING_LINE[0]) as refused:
        answers.append(refused)
    assert answers == [refused] and refused.code == "not_stored"
    async with duels.acting(player_id=ANN, match_id=MATCH, seq=5,
                            action=WINNING_LINE[0]) as stale:
        answers.append(stale)
    assert answers == [refused, stale] and stale.code == "bad_seq"
    assert happened == []
    await duels.close()


async def test_an_answer_that_cannot_go_out_stops_none_of_the_step() -> None:
    happened: list[str] = []
    store = make_store()
    duels = service(store, FakeClock(), JournalPubSub(happened))
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    for seq, action in enumerate(WINNING_LINE[:-1], start=1):
        await duels.act(player_id=ANN, match_id=MATCH, seq=seq, action=action)
    happened.clear()

    async def answer_breaks(seq: int, action: dict[str, Any], player_id: int = ANN) -> None:
        with pytest.raises(ConnectionError):
            async with duels.acting(player_id=player_id, match_id=MATCH, seq=seq,
                                    action=action) as reply:
                assert kind(reply) == "ack" and not happened  # nothing published yet
                raise ConnectionError("the socket broke")

    await answer_breaks(len(WINNING_LINE), WINNING_LINE[-1])  # the winning action
    # Logged, adopted, fanned out, the game's end announced: as for any acknowledged action.
    assert happened == ["publish progress", "publish game_over"]
    assert len(store.matches[MATCH].games[0].actions) == len(WINNING_LINE)
    again = await duels.act(player_id=ANN, match_id=MATCH, seq=len(WINNING_LINE),
                            action=WINNING_LINE[-1])
    assert kind(again) == "ack" and again.duplicate and again.status == "won"
    happened.clear()
    await answer_breaks(1, {"op": "finish"}, BOB)  # the match's last game ends
    assert "publish match_result" in happened
    assert store.matches[MATCH].winner_id == ANN  # the match is settled all the same
    await duels.close()


async def test_the_game_is_held_until_the_block_is_left() -> None:
    # The step's effects, published as the block is left, come before anything of the
    # seat's next step: its lock is held meanwhile.
    happened: list[str] = []
    duels = service(make_store(), FakeClock(), JournalPubSub(happened))
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    happened.clear()

    async def act_next() -> None:
        reply = await duels.act(player_id=ANN, match_id=MATCH, seq=2, action=WINNING_LINE[1])
        happened.append(f"answer {reply.seq}")

    async with duels.acting(player_id=ANN, match_id=MATCH, seq=1,
                            action=WINNING_LINE[0]) as reply:
        happened.append(f"answer {reply.seq}")
        following = asyncio.create_task(act_next())
        await asyncio.sleep(0.01)
        assert not following.done() and happened == ["answer 1"]
    await following
    assert happened == ["answer 1", "publish progress", "publish progress", "answer 2"]
    await duels.close()


async def test_a_presence_change_shows_no_step_before_it_is_answered() -> None:
    happened: list[str] = []
    duels = service(make_store(), FakeClock(), JournalPubSub(happened))
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    happened.clear()
    async with duels.acting(player_id=ANN, match_id=MATCH, seq=1,
                            action=WINNING_LINE[0]) as reply:
        happened.append(f"answer {reply.seq}")
        presence = asyncio.create_task(duels.online_changed(ANN))  # a tab closed, say
        await asyncio.sleep(0.01)
        assert happened == ["answer 1"]  # the new progress waits for the step's own
    await presence
    assert happened == ["answer 1", "publish progress", "publish progress"]
    await duels.close()


class BrokenStore(MemoryStore):
    broken = False

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        if self.broken:
            raise RuntimeError("a bug, not a refusal")
        await super().append_action(*args, **kwargs)


async def test_a_step_that_fails_to_be_made_lets_the_game_go() -> None:
    store = BrokenStore()
    store.matches = make_store().matches
    duels = service(store, FakeClock())
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    store.broken = True
    with pytest.raises(RuntimeError):
        async with duels.acting(player_id=ANN, match_id=MATCH, seq=1,
                                action=WINNING_LINE[0]):
            raise AssertionError("no reply: the block is not entered")
    assert not (await duels.match(MATCH)).lock(ANN).locked()
    store.broken = False
    reply = await asyncio.wait_for(
        duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0]), 1)
    assert kind(reply) == "ack" and reply.seq == 1
    await duels.close()


class UnreachablePubSub(MemoryPubSub):
    """A bus whose every publish fails while ``down`` (Redis away)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False

    async def publish(self, channel: str, message: Any) -> None:
        if self.down:
            raise ConnectionError("Redis is away")
        await super().publish(channel, message)


async def test_a_fan_out_that_fails_after_the_ack_is_no_second_answer() -> None:
    pubsub = UnreachablePubSub()
    store = make_store()
    duels = service(store, FakeClock(), pubsub)
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    pubsub.down = True
    answers: list[dict[str, Any]] = []
    for seq, action in enumerate(WINNING_LINE, start=1):
        async with duels.acting(player_id=ANN, match_id=MATCH, seq=seq,
                                action=action) as reply:  # leaving it raises nothing
            answers.append(reply)
        assert kind(reply) == "ack"
    assert [a.seq for a in answers] == list(range(1, len(WINNING_LINE) + 1))  # one each
    async with duels.finishing(player_id=BOB, match_id=MATCH, seq=1) as reply:
        answers.append(reply)
    assert kind(answers[-1]) == "ack" and len(answers) == len(WINNING_LINE) + 1
    # The effects after the failed publishes still happened: the match is settled.
    assert store.matches[MATCH].winner_id == ANN
    await duels.close()


async def play_line(duels: DuelService, player: int) -> dict[str, Any]:
    reply: dict[str, Any] = {}
    for seq, action in enumerate(WINNING_LINE, start=1):
        reply = await duels.act(player_id=player, match_id=MATCH, seq=seq, action=action)
        assert kind(reply) == "ack", reply
    return reply


async def test_a_whole_duel_win_and_finish_gives_a_result() -> None:
    pubsub = MemoryPubSub()
    ann_inbox = await pubsub.subscribe(channels.player(ANN))
    clock = FakeClock()
    store = make_store()
    duels = service(store, clock, pubsub)
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    last = await play_line(duels, ANN)
    assert last.status == "won" and last.score == 215
    late = await duels.act(player_id=ANN, match_id=MATCH, seq=20, action={"op": "deal"})
    assert late.code == "game_over"
    clock.now += 3
    await duels.act(player_id=BOB, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    finished = await duels.finish(player_id=BOB, match_id=MATCH, seq=2)
    assert finished.status == "finished" and finished.score == -1
    repeat = await duels.finish(player_id=BOB, match_id=MATCH, seq=2)
    assert repeat.duplicate is True
    result = await asyncio.wait_for(ann_inbox.__anext__(), 1)
    assert kind(result) == "match_result" and result.winner_id == ANN
    assert result.deal.layout.removed == ["s"] * 6
    assert store.results[MATCH][0] == ANN
    replay = await duels.replay(viewer_id=EVE, match_id=MATCH, player_id=ANN)
    assert as_json(replay)["record"]["moves"] == WINNING_LINE
    await duels.close()


async def test_spectating_needs_my_game_over_and_strangers_wait_for_the_match() -> None:
    duels = service(make_store(), FakeClock())
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    with pytest.raises(SpectateRefused):
        await duels.spectate(viewer_id=ANN, match_id=MATCH, player_id=None, follow=no_follow)
    await duels.finish(player_id=ANN, match_id=MATCH, seq=1)
    followed: list[str] = []

    async def follow(channel: str) -> None:
        followed.append(channel)

    snap = await duels.spectate(viewer_id=ANN, match_id=MATCH, player_id=None, follow=follow)
    assert snap.role == "spectator" and snap.player_id == BOB
    assert channels.watch(MATCH, BOB) in followed
    with pytest.raises(SpectateRefused):
        await duels.spectate(viewer_id=EVE, match_id=MATCH, player_id=BOB, follow=no_follow)
    with pytest.raises(ReplayNotReady):
        await duels.replay(viewer_id=ANN, match_id=MATCH, player_id=BOB)
    await duels.close()


async def test_an_outsider_s_early_spectate_is_refused_as_documented() -> None:
    duels = service(make_store(), FakeClock())
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    for named in (None, BOB):  # docs/protocol.md, "Spectating": spectate_refused
        with pytest.raises(SpectateRefused, match="match in progress"):
            await duels.spectate(viewer_id=EVE, match_id=MATCH, player_id=named,
                                 follow=no_follow)
    await duels.finish(player_id=ANN, match_id=MATCH, seq=1)
    await duels.finish(player_id=BOB, match_id=MATCH, seq=1)
    with pytest.raises(SpectateRefused, match="player_id"):  # whose game, then?
        await duels.spectate(viewer_id=EVE, match_id=MATCH, player_id=None, follow=no_follow)
    snap = await duels.spectate(viewer_id=EVE, match_id=MATCH, player_id=BOB,
                                follow=no_follow)
    assert snap.role == "spectator" and snap.player_id == BOB
    await duels.close()


class RecordingPubSub(MemoryPubSub):
    def __init__(self) -> None:
        super().__init__()
        self.published: list[str] = []

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.published.append(channel)
        await super().publish(channel, message)


async def test_a_spectator_joining_mid_game_gets_every_later_step() -> None:
    pubsub = RecordingPubSub()
    duels = service(make_store(), FakeClock(), pubsub=pubsub)
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    acks = [await duels.act(player_id=BOB, match_id=MATCH, seq=seq, action=action)
            for seq, action in enumerate(WINNING_LINE[:4], start=1)]
    await duels.finish(player_id=ANN, match_id=MATCH, seq=1)
    # Nobody could watch Bob's game so far: its steps built no watch frame.
    assert channels.watch(MATCH, BOB) not in pubsub.published
    subscriptions = []

    async def follow(channel: str) -> None:
        subscriptions.append(await pubsub.subscribe(channel))

    snap = await duels.spectate(viewer_id=ANN, match_id=MATCH, player_id=BOB, follow=follow)
    assert snap.seq == 4 and snap.view == acks[-1].view
    watch = next(s for s in subscriptions if s.channel == channels.watch(MATCH, BOB))
    for seq, action in enumerate(WINNING_LINE[4:], start=5):
        ack = await duels.act(player_id=BOB, match_id=MATCH, seq=seq, action=action)
        step = await asyncio.wait_for(watch.__anext__(), 1)
        assert step == WatchEvent(MATCH, BOB, seq, ack.view, ack.score, ack.events,
                                  ack.status)
    assert step.status == "won" and step.view.status == "won"
    await duels.close()


class ElsewherePubSub:
    """Not the in-process backend: its subscribers may live in other processes."""

    def __init__(self) -> None:
        self.hub = MemoryPubSub()
        self.published: list[str] = []

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.published.append(channel)
        await self.hub.publish(channel, message)

    async def subscribe(self, channel: str) -> Any:
        return await self.hub.subscribe(channel)

    async def close(self) -> None:
        await self.hub.close()


async def test_steps_are_published_when_watchers_may_be_in_other_processes() -> None:
    pubsub = ElsewherePubSub()
    duels = DuelService(store=make_store(), pubsub=pubsub, clock=FakeClock())
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    await duels.act(player_id=BOB, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert channels.watch(MATCH, BOB) in pubsub.published
    await duels.close()


async def test_the_server_times_a_game_out_without_the_player() -> None:
    pubsub, clock = MemoryPubSub(), FakeClock()
    news = await pubsub.subscribe(channels.match(MATCH))
    store = make_store(time_limit=200)
    duels = service(store, clock, pubsub=pubsub)
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await clock.advance(199.9)
    assert store.matches[MATCH].games[0].end_reason is None  # not a moment too early
    await clock.advance(0.1)
    over: dict[str, Any] = {}
    while kind(over) != "game_over":
        over = await asyncio.wait_for(news.__anext__(), 2)
    assert over.reason == "timed_out" and over.elapsed_ms == 200_000
    game = store.matches[MATCH].games[0]
    assert game.end_reason == "timed_out" and game.ended_at == game.started_at + 200
    await duels.close()


async def test_a_restart_rebuilds_games_and_resumes_clocks() -> None:
    clock = FakeClock()
    store = make_store(time_limit=100)
    first = service(store, clock)
    await first.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await first.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    for seq, action in enumerate(WINNING_LINE[:5], start=1):
        await first.act(player_id=ANN, match_id=MATCH, seq=seq, action=action)
    await first.close()  # the process dies

    clock.now += 40
    second = service(store, clock)
    assert await second.restore() == 1
    snap = await second.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert snap.seq == 5 and snap.time_left_ms == 60_000
    again = await second.act(player_id=ANN, match_id=MATCH, seq=5, action=WINNING_LINE[4])
    assert again.duplicate is True and again.view.actions == 5
    await second.close()

    clock.now += 100  # down for longer than the time left: both time out at the deadline
    third = service(store, clock)
    await third.restore()
    assert [g.end_reason for g in store.matches[MATCH].games] == ["timed_out", "timed_out"]
    assert store.matches[MATCH].finished
    await third.close()


async def test_a_duplicate_ack_after_a_restart_is_the_original_ack_byte_for_byte() -> None:
    clock = FakeClock()
    store = make_store(time_limit=100)
    first = service(store, clock)
    await first.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    acks = []
    for seq, action in enumerate(WINNING_LINE[:5], start=1):
        clock.now += 1.25
        acks.append(await first.act(player_id=ANN, match_id=MATCH, seq=seq, action=action))
    await first.close()  # the process dies; the client resends its last action elsewhere

    clock.now += 7
    second = service(store, clock)
    await second.restore()
    for _ in range(2):  # the first answer fans the step out again, the second does not
        again = await second.act(player_id=ANN, match_id=MATCH, seq=5, action=WINNING_LINE[4])
        assert encode(again) == encode(msgspec.structs.replace(acks[-1], duplicate=True))
    # The same within a process (no restart): the kept ack, not one made anew.
    clock.now += 3
    assert await second.act(player_id=ANN, match_id=MATCH, seq=5, action=WINNING_LINE[4]
                            ) == msgspec.structs.replace(acks[-1], duplicate=True)
    await second.close()


class EndlessStore(MemoryStore):
    """A store whose end-of-game writes fail (an outage)."""

    async def end_game(self, *args: Any, **kwargs: Any) -> None:
        raise StoreError("database gone")


async def test_a_finish_that_cannot_be_stored_is_refused_but_a_time_out_stands() -> None:
    store, clock = EndlessStore(), FakeClock()
    store.matches = make_store(time_limit=20).matches
    duels = service(store, clock)
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    refused = await duels.finish(player_id=ANN, match_id=MATCH, seq=1)
    assert refused.code == "not_stored" and refused.status == "playing"
    await clock.advance(35)  # the clock runs out: the server's task ends the game anyway
    assert (await duels.match(MATCH)).game_of(ANN).end_reason == "timed_out"
    late = await duels.finish(player_id=ANN, match_id=MATCH, seq=1)
    assert late.code == "game_over" and late.status == "timed_out"
    await duels.close()


async def test_only_a_bounded_number_of_finished_matches_stay_in_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.rooms import duel as duel_module

    monkeypatch.setattr(duel_module, "SETTLED_CACHE", 2)
    store = MemoryStore()
    for match_id in range(1, 5):
        store.add_match(StoredMatch(
            match_id=match_id, rules=RULES, time_limit_s=60,
            games=[StoredGame(10 * match_id, ANN), StoredGame(10 * match_id + 1, BOB)],
            deal={"layout": near_finished_layout()},
        ))
    duels = service(store, FakeClock())
    for match_id in range(1, 5):
        for player in (ANN, BOB):
            await duels.open_game(player_id=player, match_id=match_id, follow=no_follow)
            await duels.finish(player_id=player, match_id=match_id, seq=1)
    assert [duels.result(m) is not None for m in range(1, 5)] == [False, False, True, True]
    reloaded = await duels.match(1)  # evicted, not lost: rebuilt from the store
    assert reloaded.over and reloaded.result is not None
    await duels.close()


async def test_a_game_nobody_opened_did_not_start_when_the_table_expires() -> None:
    store, clock = make_store(time_limit=600), FakeClock()
    store.matches[MATCH].expires_at = clock.now + 30
    duels = service(store, clock)
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await duels.finish(player_id=ANN, match_id=MATCH, seq=1)  # Bob plays later… or never
    await clock.advance(29)
    assert store.matches[MATCH].games[1].end_reason is None
    await clock.advance(1)
    bob = store.matches[MATCH].games[1]
    assert bob.end_reason == "timed_out" and bob.started_at is None
    assert store.results[MATCH][0] == ANN  # same score (0), Bob's time is the whole limit
    late = await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    # Stored as a time-out of a game never opened; said as "did not start".
    assert late.status == "did_not_start" and late.time_left_ms == 0
    assert store.matches[MATCH].games[1].started_at is None  # opening late starts nothing
    await duels.close()


async def test_opening_after_the_table_expired_starts_no_clock() -> None:
    store = make_store()
    store.matches[MATCH].expires_at = 1.0  # long ago
    duels = service(store, FakeClock())
    snapshot = await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert snapshot.status == "did_not_start"
    reply = await duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    assert reply.code == "game_over"
    await duels.close()


# ------------------------------------------------------------------ hints


def hidden_swapped_layout() -> dict[str, Any]:
    """The same visible position as near_finished_layout, other face-down cards and stock."""
    layout = near_finished_layout()
    tableau = layout["tableau"]
    tableau[1]["down"], tableau[3]["down"] = tableau[3]["down"], tableau[1]["down"]
    layout["stock"] = list(reversed(layout["stock"]))
    return layout


async def test_a_hint_is_legal_for_the_current_state_and_changes_nothing() -> None:
    store = make_store()
    duels = service(store, FakeClock())
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    for seq, action in enumerate(WINNING_LINE[:4], start=1):
        await duels.act(player_id=ANN, match_id=MATCH, seq=seq, action=action)
    before = await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    answer = await duels.hint(player_id=ANN, match_id=MATCH)
    assert kind(answer) == "hint" and answer.match_id == MATCH and answer.reason
    state = (await duels.match(MATCH)).game_of(ANN).game.state
    sent = as_json(answer)["action"]  # what the client reads, and sends back
    assert sent is not None
    assert is_legal(state, action_from_json(sent))
    after = await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert after == before  # no seq, no score, no log entry
    assert len(store.matches[MATCH].games[0].actions) == 4
    # Playing the hint is accepted by the server as the next action.
    played = await duels.act(player_id=ANN, match_id=MATCH, seq=5, action=sent)
    assert kind(played) == "ack", played
    await duels.close()


async def test_a_hint_ignores_face_down_cards_and_the_stock_order() -> None:
    answers = []
    for layout in (near_finished_layout(), hidden_swapped_layout()):
        store = make_store()
        store.matches[MATCH].deal = {"layout": layout}
        duels = service(store, FakeClock())
        await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
        answers.append(await duels.hint(player_id=ANN, match_id=MATCH))
        await duels.close()
    assert answers[0] == answers[1]


async def test_a_hint_is_refused_for_a_game_not_mine_not_opened_or_over() -> None:
    clock = FakeClock()
    duels = service(make_store(time_limit=100), clock)
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    with pytest.raises(NotSeated):
        await duels.hint(player_id=EVE, match_id=MATCH)
    with pytest.raises(NoSuchMatch):
        await duels.hint(player_id=ANN, match_id=MATCH + 1)
    with pytest.raises(NotOpened):  # Bob's seat, not opened yet
        await duels.hint(player_id=BOB, match_id=MATCH)
    await duels.finish(player_id=ANN, match_id=MATCH, seq=1)
    with pytest.raises(GameIsOver):
        await duels.hint(player_id=ANN, match_id=MATCH)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    clock.now += 101  # past Bob's deadline, before his timer has run
    with pytest.raises(GameIsOver):
        await duels.hint(player_id=BOB, match_id=MATCH)
    assert (await duels.match(MATCH)).game_of(BOB).end_reason == "timed_out"
    await duels.close()


async def test_a_settled_match_is_freed_without_the_cycle_collector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The server collects its old generation rarely (app/ops/serve.py): live state must
    # die by reference counting, or every finished match would wait for a full pass.
    from app.rooms import duel as duel_module

    monkeypatch.setattr(duel_module, "SETTLED_CACHE", 0)  # evicted as soon as settled
    duels = service(make_store(), FakeClock())
    live = await duels.match(MATCH)
    freed = [weakref.ref(live), *(weakref.ref(game) for game in live.games)]
    del live
    gc.collect()
    gc.disable()
    try:
        await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
        await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
        await play_line(duels, ANN)
        await duels.finish(player_id=BOB, match_id=MATCH, seq=1)
        assert duels.result(MATCH) is None and not duels.cached(MATCH)
        await asyncio.sleep(0)  # the cancelled clock tasks end
        await asyncio.sleep(0)
        assert [ref() is None for ref in freed] == [True, True, True]
    finally:
        gc.enable()
    await duels.close()


async def test_a_game_keeps_its_actions_as_json_the_collector_does_not_walk() -> None:
    duels = service(make_store(), FakeClock())
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    await play_line(duels, ANN)
    kept = (await duels.match(MATCH)).game_of(ANN).actions
    assert list(kept) == WINNING_LINE
    assert not any(gc.is_tracked(action) for action in kept)
    await duels.open_game(player_id=BOB, match_id=MATCH, follow=no_follow)
    await duels.finish(player_id=BOB, match_id=MATCH, seq=1)
    replay = await duels.replay(viewer_id=BOB, match_id=MATCH, player_id=ANN)
    assert as_json(replay)["record"]["moves"] == WINNING_LINE
    await duels.close()


async def test_a_player_who_does_not_start_within_the_window_loses_did_not_start() -> None:
    clock = FakeClock()
    store = make_store(time_limit=600)
    store.matches[MATCH].start_by = clock.now + 120  # made now, a two-minute window
    store.matches[MATCH].expires_at = clock.now + 86_400  # the table's, much later
    pubsub = MemoryPubSub()
    seen = await pubsub.subscribe(channels.match(MATCH))
    duels = service(store, clock, pubsub)
    opened = await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    # The waiting player is told until when the other may start.
    assert opened.opponent.status == "not_started"
    assert opened.opponent.start_deadline == iso_time(clock.now + 120)
    mine = await asyncio.wait_for(seen.__anext__(), 2)
    assert mine.progress.start_deadline is None  # Ann has started: no deadline
    await duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
    clock.now += 121
    await duels.reload(MATCH)  # what the sweeper does once the window is over
    live = await duels.match(MATCH)
    assert live.game_of(BOB).status == "did_not_start"
    assert store.matches[MATCH].games[1].end_reason == "timed_out"  # as stored
    await duels.finish(player_id=ANN, match_id=MATCH, seq=2)
    result = duels.result(MATCH)
    assert result is not None and result.winner_id == ANN
    assert {r.player_id: r.reason for r in result.results} == {
        ANN: "finished", BOB: "did_not_start"}
    await duels.close()


async def test_the_result_names_the_players_of_the_match() -> None:
    store = make_store()
    for game, name in zip(store.matches[MATCH].games, ("Ann", "Bob"), strict=True):
        game.name = name
    duels = service(store, FakeClock())
    for player in (ANN, BOB):
        await duels.open_game(player_id=player, match_id=MATCH, follow=no_follow)
        await duels.finish(player_id=player, match_id=MATCH, seq=1)
    result = duels.result(MATCH)
    assert result is not None
    assert {r.player_id: r.name for r in result.results} == {ANN: "Ann", BOB: "Bob"}
    await duels.close()


async def test_the_finish_ack_carries_the_final_clock() -> None:
    clock = FakeClock()
    duels = service(make_store(time_limit=600), clock)
    await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    clock.now += 42.5
    ack = await duels.finish(player_id=ANN, match_id=MATCH, seq=1)
    assert kind(ack) == "ack" and ack.status == "finished"
    assert ack.time_left_ms == 557_500
    clock.now += 30  # the clock has stopped: later frames say the same
    again = await duels.open_game(player_id=ANN, match_id=MATCH, follow=no_follow)
    assert again.time_left_ms == 557_500
    await duels.close()
