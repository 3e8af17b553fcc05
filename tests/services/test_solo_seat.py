"""A solo or daily game as a one-seat match on the duel core (app/services/solo_seat.py):
the match rebuilt from a row and its log is the game the log tells, scored as solo
scores; a cached match follows its row or asks for a rebuild."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.db.solo_models import SoloAction, SoloGame
from app.engine.actions import action_from_json
from app.engine.game import apply, legal_actions
from app.rooms import duel_core as core
from app.rooms.modes import SOLO_MODE
from app.rooms.step_writes import write_step
from app.rooms.store import StoreError, Totals
from app.services.solo_seat import SoloRowStore, in_step, seat_match, seat_of, seconds
from app.services.solo_store import score_of, start_state
from tests.support.frames import kind
from tests.support.play import legal_walk

T0 = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


def row(number: int, suits: int = 1, **fields: object) -> SoloGame:
    values: dict[str, object] = {
        "id": 7, "player_id": 3, "kind": "solo", "suits": suits, "solvable_only": False,
        "relaxed": False, "source_deal": number, "status": "playing",
        "started_at": T0, "ended_at": None, "actions_count": 0, **fields}
    return SoloGame(**values)


def logged(game: SoloGame, picks: list[int]) -> list[SoloAction]:
    return [SoloAction(game_id=game.id, seq=seq, action=action.to_json(), by="player",
                       at=T0 + timedelta(seconds=seq))
            for seq, action in enumerate(legal_walk(start_state(game), picks)[1], start=1)]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 2**31 - 1), st.sampled_from([1, 2, 4]),
       st.lists(st.integers(0, 10**6), max_size=60))
def test_the_rebuilt_match_is_the_game_its_log_tells_scored_as_solo_scores(
        number: int, suits: int, picks: list[int]) -> None:
    game = row(number, suits)
    log = logged(game, picks)
    game.actions_count = len(log)
    match = seat_match(game, log)
    seat = seat_of(match)
    state = start_state(game)
    for entry in log:
        state, _ = apply(state, action_from_json(entry.action))
    assert match.mode is SOLO_MODE and len(match.seats) == 1
    assert seat.game.state == state and seat.seq == len(log) == seat.log_length
    assert seat.game.points == score_of(state)
    assert seat.started_at == seconds(T0) and seat.status == "playing"
    assert seat.last_ack is None  # solo answers repeats from its cache only


def test_a_naive_moment_from_sqlite_is_utc() -> None:
    assert seconds(T0.replace(tzinfo=None)) == seconds(T0) == T0.timestamp()
    assert seconds(None) is None


def test_a_cached_match_follows_its_row_or_asks_for_a_rebuild() -> None:
    game = row(5, started_at=None)
    match = seat_match(game, [])
    assert in_step(match, game) is match  # nothing moved: the same value
    game.started_at = T0  # opened (a lifecycle command, outside the core)
    opened = in_step(match, game)
    assert opened is not None and seat_of(opened).started_at == seconds(T0)
    step = core.act(opened, 3, 1, legal_actions(seat_of(opened).game.state)[0].to_json(),
                    seconds(T0) or 0.0)
    assert step.reply is not None and kind(step.reply) == "ack"
    cached = step.match.with_seat(seat_of(step.match).evolve(last_ack=step.reply))
    assert in_step(cached, game) is None  # the row says 0 actions: another process's log
    game.actions_count = 1
    assert in_step(cached, game) is cached
    game.status, game.ended_at = "abandoned", T0 + timedelta(minutes=5)
    ended = in_step(cached, game)
    assert ended is not None and seat_of(ended).status == "abandoned"
    assert in_step(ended, game) is ended
    refused = core.act(ended, 3, 2, {"op": "deal"}, seconds(T0) or 0.0).reply
    assert refused is not None and refused.code == "game_over"
    # The last answer stays cached: its resend is answered again, game over or not.
    again = core.act(ended, 3, 1, {"op": "deal"}, seconds(T0) or 0.0).reply
    assert again == msgspec.structs.replace(step.reply, duplicate=True)


class Session:
    """What the solo store asks of a session: ``add`` (the log's rows), recorded."""

    def __init__(self) -> None:
        self.added: list[object] = []

    def add(self, row: object) -> None:
        self.added.append(row)


async def test_opening_playing_and_abandoning_are_steps_of_the_core_stored_on_the_row(
) -> None:
    """Through the port every mode's steps go through (``write_step``), on the row."""
    game, session = row(5, started_at=None), Session()
    store = SoloRowStore(session, game, by="player")  # type: ignore[arg-type]
    match = seat_match(game, [])
    opening = core.open_seat(match, 3, seconds(T0) or 0.0)
    assert opening is not None
    assert await write_step(store, opening) is None
    assert game.started_at == T0 and session.added == []
    action = legal_actions(seat_of(opening.match).game.state)[0]
    step = core.act(opening.match, 3, 1, action.to_json(), (seconds(T0) or 0.0) + 1)
    rescue = SoloRowStore(session, game, by="rescue")  # type: ignore[arg-type]
    appended = await write_step(rescue, step)
    assert appended is not None and appended.seq == 1
    [logged] = session.added
    assert isinstance(logged, SoloAction) and (logged.seq, logged.by) == (1, "rescue")
    assert logged.action == action.to_json() and game.actions_count == 1
    assert logged.at == T0 + timedelta(seconds=1)  # the core's moment, not the store's
    assert game.score == seat_of(step.match).game.points and game.status == "playing"
    leave = core.end(step.match, 3, "abandoned", (seconds(T0) or 0.0) + 2)
    assert await write_step(store, leave) is None
    assert (game.status, game.ended_at) == ("abandoned", T0 + timedelta(seconds=2))
    assert game.elapsed_ms == 2000
    assert seat_of(leave.match).status == "abandoned"
    assert core.open_seat(leave.match, 3, seconds(T0) or 0.0) is None  # over: no reopening


async def test_the_solo_store_keeps_an_end_once_and_only_its_own_game() -> None:
    game, session = row(5, status="won", ended_at=T0), Session()
    store = SoloRowStore(session, game, by="player")  # type: ignore[arg-type]
    totals = Totals(0, 0, 0)
    await store.end_game(7, "abandoned", (seconds(T0) or 0.0) + 9, totals)
    assert (game.status, game.ended_at) == ("won", T0)  # the first end stays
    with pytest.raises(StoreError, match="not this store's game"):
        await store.append_action(8, 1, {"op": "deal"}, 0.0, totals)
    assert session.added == []
