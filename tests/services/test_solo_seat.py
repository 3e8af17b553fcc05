"""A solo or daily game as a one-seat match on the duel core (app/services/solo_seat.py):
the match rebuilt from a row and its log is the game the log tells, scored as solo
scores; a cached match follows its row or asks for a rebuild."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from app.db.solo_models import SoloAction, SoloGame
from app.engine.actions import action_from_json
from app.engine.game import apply, legal_actions
from app.rooms import duel_core as core
from app.rooms.modes import SOLO_MODE
from app.services.solo_seat import in_step, seat_match, seat_of, seconds, write_step
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
    """What ``write_step`` asks of a session: ``add`` (the log's rows), recorded."""

    def __init__(self) -> None:
        self.added: list[object] = []

    def add(self, row: object) -> None:
        self.added.append(row)


def test_opening_playing_and_abandoning_are_steps_of_the_core_stored_on_the_row() -> None:
    game, session = row(5, started_at=None), Session()
    match = seat_match(game, [])
    opening = core.open_seat(match, 3, seconds(T0) or 0.0)
    assert opening is not None
    assert write_step(session, game, opening, by="player", at=T0) is None  # type: ignore[arg-type]
    assert game.started_at == T0 and session.added == []
    action = legal_actions(seat_of(opening.match).game.state)[0]
    step = core.act(opening.match, 3, 1, action.to_json(), (seconds(T0) or 0.0) + 1)
    assert write_step(session, game, step, by="rescue", at=T0) is None  # type: ignore[arg-type]
    [logged] = session.added
    assert isinstance(logged, SoloAction) and (logged.seq, logged.by) == (1, "rescue")
    assert logged.action == action.to_json() and game.actions_count == 1
    assert game.score == seat_of(step.match).game.points
    leave = core.end(step.match, 3, "abandoned", (seconds(T0) or 0.0) + 2)
    assert write_step(session, game, leave, by="player", at=T0) == "abandoned"  # type: ignore[arg-type]
    assert seat_of(leave.match).status == "abandoned"
    assert core.open_seat(leave.match, 3, seconds(T0) or 0.0) is None  # over: no reopening
