"""Solo play through the service, on SQLite and PostgreSQL: start, act, win, rebuild."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.solo_models import SoloAction, SoloGame
from app.engine.actions import Undo
from app.engine.game import legal_moves, push, replay
from app.engine.record import record_from_json
from app.engine.solver.advice import Rescue
from app.engine.solver.solvable import solvable_deal
from app.engine.state import GameState
from app.rewards import guide
from app.rewards.assist import RESCUE_ACTIONS, AutoComplete, auto_complete, rescue_actions
from app.rewards.points import win_points
from app.rewards.solo import SoloOptions, solo_start
from app.rooms.frames import played
from app.scoring.replay import replay_record
from app.scoring.schemes import windows_points
from app.services import solo_play
from app.services import solo_store as games
from app.wire.events import Undone
from tests.support.frames import kind
from tests.support.solo import (
    FakeClock,
    Outside,
    add_player,
    make_play,
    one_suit,
    opened_game,
)


async def test_a_solvable_deal_played_to_a_win_logs_scores_and_replays(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    clock = FakeClock()
    play = make_play(session_factory, clock)
    ann = await add_player(session_factory, "Ann")
    start, line = one_suit(7)
    created = await play.create(player_id=ann, start=start)
    game_id = created.game.id
    assert created.abandoned_game_id is None
    [snapshot] = await play.open(player_id=ann, game_id=game_id)
    assert snapshot.number == 7 and snapshot.seq == 0 and snapshot.elapsed_ms == 0
    frames: list[dict] = []  # type: ignore[type-arg]
    for seq, action in enumerate(line, start=1):
        clock.advance(seconds=1)
        frames = await play.act(player_id=ann, game_id=game_id, seq=seq, action=action.to_json())
        assert kind(frames[0]) == "solo_ack", frames[0]
    assert [kind(f) for f in frames][:2] == ["solo_ack", "solo_over"]
    assert {kind(f) for f in frames[2:]} == {"badge"}  # the first win earns some
    over = frames[1]
    assert over.status == "won" and over.elapsed_ms == len(line) * 1000
    expected = win_points(options=SoloOptions(1), elapsed_ms=len(line) * 1000,
                          actions=len(line))
    assert over.points == expected == over.points_breakdown.total
    assert over.source_deal == start.source
    async with session_factory() as session:
        game = await games.get_game(session=session, game_id=game_id)
        assert (game.status, game.points, game.actions_count) == ("won", expected, len(line))
        log = await games.logged_actions(session=session, game_id=game_id)
        assert [entry.seq for entry in log] == list(range(1, len(line) + 1))
        assert {entry.by for entry in log} == {"player"}
        report = replay_record(record_from_json(games.record_of(game, log).to_json()))
        assert report.all_legal and report.game.state.won
        assert report.game.state.actions == len(line) and report.game.points == game.score
    late = await play.act(player_id=ann, game_id=game_id, seq=len(line) + 1,
                          action=line[0].to_json())
    assert late[0].code == "game_over"


async def test_seq_rules_duplicates_and_illegal_actions(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    play = make_play(session_factory, FakeClock())
    ann = await add_player(session_factory, "Ann")
    start, line = one_suit(3)
    game_id = (await play.create(player_id=ann, start=start)).game.id
    early = await play.act(player_id=ann, game_id=game_id, seq=1, action=line[0].to_json())
    assert early[0].code == "not_opened"
    await play.open(player_id=ann, game_id=game_id)
    [ack] = await play.act(player_id=ann, game_id=game_id, seq=1, action=line[0].to_json())
    [again] = await play.act(player_id=ann, game_id=game_id, seq=1, action=line[0].to_json())
    assert again == msgspec.structs.replace(ack, duplicate=True)
    [ahead] = await play.act(player_id=ann, game_id=game_id, seq=5, action=line[1].to_json())
    assert ahead.code == "bad_seq" and ahead.next_seq == 2
    [bad] = await play.act(player_id=ann, game_id=game_id, seq=2, action={"op": "fly"})
    assert bad.code == "bad_action" and bad.next_seq == 2
    [illegal] = await play.act(player_id=ann, game_id=game_id, seq=2,
                               action={"op": "move", "from": 0, "to": 0, "count": 1})
    assert illegal.code == "same_column"
    [undo] = await play.act(player_id=ann, game_id=game_id, seq=2, action=Undo().to_json())
    assert undo.events == [Undone()]
    [stale] = await play.act(player_id=ann, game_id=game_id, seq=1, action=line[0].to_json())
    assert stale.code == "stale_seq"
    async with session_factory() as session:
        game = await games.get_game(session=session, game_id=game_id)
        assert (game.actions_count, game.undos) == (2, 1)


async def test_a_new_process_rebuilds_the_game_from_its_log(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    clock = FakeClock()
    first = make_play(session_factory, clock)
    ann = await add_player(session_factory, "Ann")
    start, line = one_suit(5)
    game_id = (await first.create(player_id=ann, start=start)).game.id
    await first.open(player_id=ann, game_id=game_id)
    for seq, action in enumerate(line[:20], start=1):
        await first.act(player_id=ann, game_id=game_id, seq=seq, action=action.to_json())
    second = make_play(session_factory, clock)  # a restart: nothing cached
    [snapshot] = await second.open(player_id=ann, game_id=game_id)
    assert snapshot.seq == 20
    assert snapshot.view == (await first.open(player_id=ann, game_id=game_id))[0].view
    [ack] = await second.act(player_id=ann, game_id=game_id, seq=21, action=line[20].to_json())
    assert kind(ack) == "solo_ack"
    async with session_factory() as session:
        game = await games.get_game(session=session, game_id=game_id)
        rebuilt = await games.rebuild(session=session, game=game)
    assert rebuilt == replay(start.state, line[:21])
    assert game.score == ack.score and game.actions_count == 21


async def test_one_solo_game_in_progress_a_new_one_abandons_it(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    outside = Outside()
    play = make_play(session_factory, FakeClock(), outside)
    ann = await add_player(session_factory, "Ann")
    first = await play.create(player_id=ann, start=solo_start(11, SoloOptions(1, False)))
    second = await play.create(player_id=ann, start=solo_start(12, SoloOptions(2, False, True)))
    assert second.abandoned_game_id == first.game.id
    assert outside.frames == [(ann, outside.frames[0][1])]
    assert kind(outside.frames[0][1]) == "solo_over"
    assert outside.frames[0][1].status == "abandoned"
    assert outside.frames[0][1].elapsed_ms is None  # never opened
    async with session_factory() as session:
        rows = list(await session.scalars(select(SoloGame).order_by(SoloGame.id)))
        assert [(g.status, g.suits, g.relaxed, g.mapping_version) for g in rows] == [
            ("abandoned", 1, False, None), ("playing", 2, True, None)]
        assert await session.scalar(select(SoloAction.id)) is None


async def test_the_row_counters_are_the_log_s(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    """actions_count, undos, rescues, auto_completed and score, rebuilt from the log alone."""
    play = make_play(session_factory, FakeClock())
    ann = await add_player(session_factory, "Ann")
    start, line = one_suit(6)
    game_id = (await play.create(player_id=ann, start=start)).game.id
    await play.open(player_id=ann, game_id=game_id)
    steps = [line[0], Undo(), line[0], line[1]]
    for seq, action in enumerate(steps, start=1):
        await play.act(player_id=ann, game_id=game_id, seq=seq, action=action.to_json())
    [rescue] = await play.rescue(player_id=ann, game_id=game_id, seq=len(steps) + 1)
    assert rescue.verdict == "way_out"
    await play.hint(player_id=ann, game_id=game_id)
    async with session_factory() as session:
        game = await games.get_game(session=session, game_id=game_id)
        log = await games.logged_actions(session=session, game_id=game_id)
        state = await games.rebuild(session=session, game=game)
    runs_by_rescue = sum(1 for i, e in enumerate(log)
                         if e.by == "rescue" and (i == 0 or log[i - 1].by != "rescue"))
    assert game.actions_count == len(log) == state.actions == len(steps) + len(rescue.steps)
    assert game.undos == sum(1 for e in log if e.action["op"] == "undo") == 1
    assert game.rescues == runs_by_rescue == 1
    assert game.auto_completed == any(e.by == "auto_complete" for e in log)
    assert game.score == windows_points(state) and game.hints == 1


def counted_searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rescues' searches, as they happen: the action count of each searched position."""
    searches: list[int] = []

    def counted(state: GameState, **budget: Any) -> Rescue:
        searches.append(state.actions)
        return rescue_actions(state, **budget)

    monkeypatch.setattr(guide, "rescue_actions", counted)
    return searches


async def test_a_rescue_asked_again_where_the_last_stopped_continues_its_line(
    session_factory: async_sessionmaker[AsyncSession], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pressing Rescue again plays the next actions of the same verified line without a
    new search (seconds of CPU on 2 and 4 suits); after a move of the player's, it searches.
    The game leaves its deal's own win at once (a rescue on it needs no search at all)."""
    searches = counted_searches(monkeypatch)
    play, ann, game_id, start = await opened_game(session_factory, 5)
    off = next(move for move in legal_moves(start.state)
               if move != solvable_deal(5, 1).solution[0])
    await play.act(player_id=ann, game_id=game_id, seq=1, action=off.to_json())
    whole = rescue_actions(push(start.state, off)).line
    seq = 2
    played: list[dict[str, Any]] = []
    for _ in range(3):
        [answer] = await play.rescue(player_id=ann, game_id=game_id, seq=seq)
        assert answer.verdict == "way_out" and len(answer.steps) == RESCUE_ACTIONS
        played += [msgspec.to_builtins(step.action) for step in answer.steps]
        seq += len(answer.steps)
    assert searches == [1]  # one search, three rescues
    assert played == [action.to_json() for action in whole[:3 * RESCUE_ACTIONS]]
    await play.act(player_id=ann, game_id=game_id, seq=seq, action=Undo().to_json())
    [answer] = await play.rescue(player_id=ann, game_id=game_id, seq=seq + 1)
    assert answer.verdict == "way_out" and searches == [1, seq]


async def test_a_rescue_on_the_deals_own_win_plays_it_without_a_search(
    session_factory: async_sessionmaker[AsyncSession], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A solvable game standing on its deal's verified win (the start, or where following
    it leads) is rescued along that win at once. Before, a search ran, and at the start of
    a 4-suit deal it could answer "no way out found" of a deal known to be winnable."""
    searches = counted_searches(monkeypatch)
    play, ann, game_id, _ = await opened_game(session_factory, 5)
    line = solvable_deal(5, 1).solution
    for seq, action in enumerate(line[:2], start=1):
        await play.act(player_id=ann, game_id=game_id, seq=seq, action=action.to_json())
    [answer] = await play.rescue(player_id=ann, game_id=game_id, seq=3)
    assert answer.verdict == "way_out" and answer.points_cost > 0
    assert [step.action for step in answer.steps] == [
        played(action) for action in line[2:2 + RESCUE_ACTIONS]]
    assert searches == []


async def test_no_paid_rescue_where_the_free_auto_complete_is_offered(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    """Once the auto-complete is offered, a rescue is refused (nothing played, no cost):
    the R key used to buy one action for 250 points that the auto-complete plays free."""
    play = make_play(session_factory, FakeClock())
    ann = await add_player(session_factory, "Ann")
    start, line = one_suit(7)
    game_id = (await play.create(player_id=ann, start=start)).game.id
    await play.open(player_id=ann, game_id=game_id)
    seq = 0
    for seq, action in enumerate(line, start=1):
        [ack, *_] = await play.act(player_id=ann, game_id=game_id, seq=seq, action=action.to_json())
        if ack.auto_complete:
            break
    assert ack.auto_complete and ack.status == "playing"
    [refused] = await play.rescue(player_id=ann, game_id=game_id, seq=seq + 1)
    assert (kind(refused), refused.code) == ("solo_reject", "auto_complete_ready")
    assert refused.next_seq == seq + 1  # no seq used
    async with session_factory() as session:
        game = await games.get_game(session=session, game_id=game_id)
        assert (game.rescues, game.actions_count) == (0, seq)
    [done, *_] = await play.auto_complete(player_id=ann, game_id=game_id, seq=seq + 1)
    assert done.kind == "auto_complete" and done.status == "won"


async def test_the_offer_is_solved_without_polish_and_the_press_plays_the_polished_line(
    session_factory: async_sessionmaker[AsyncSession], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After every action of a game's end the server asks whether to offer the
    auto-complete: unpolished (milliseconds; the polish took up to half a second per
    action). Pressing the button plays the polished line, never a longer one."""
    asked: list[bool] = []

    def recording(state: GameState, **options: Any) -> AutoComplete:
        asked.append(options.get("polish", True))
        return auto_complete(state, **options)

    monkeypatch.setattr(solo_play, "auto_complete", recording)
    play, ann, game_id, start = await opened_game(session_factory, 3)
    _, line = one_suit(3)
    state, seq = start.state, 0
    for seq, action in enumerate(line, start=1):
        [ack, *_] = await play.act(player_id=ann, game_id=game_id, seq=seq, action=action.to_json())
        state = push(state, action)
        if ack.auto_complete:
            break
    assert ack.auto_complete and asked and not any(asked)  # every offer: no polish
    asked.clear()
    polished = auto_complete(state)
    [done, *_] = await play.auto_complete(player_id=ann, game_id=game_id, seq=seq + 1)
    assert asked == [True]
    assert done.status == "won" and len(done.steps) == len(polished.actions)
    assert [step.action for step in done.steps] == [played(a) for a in polished.actions]
