"""Every solo frame builder makes a frame that reads back as its type (app/wire/solo.py):
``app/services/solo_frames.py`` is the one place solo and daily frames are made."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import msgspec
import pytest

from app.db.solo_models import SoloGame
from app.engine.actions import Undo
from app.engine.game import legal_actions
from app.rewards.badges import BadgeAward
from app.rooms import duel_core as core
from app.rooms import frames
from app.services import solo_frames
from app.services.solo_seat import seat_match, seat_of, seconds
from app.services.solo_store import end_game, start_state
from app.wire.base import Frame
from app.wire.events import Undone
from tests.support.frames import as_json, assert_is_its_type, kind

T0 = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


def a_game(**fields: Any) -> SoloGame:
    values: dict[str, Any] = {
        "id": 41, "player_id": 3, "kind": "daily", "number": 20261204, "suits": 1,
        "solvable_only": False, "relaxed": False, "source_deal": 9, "status": "playing",
        "difficulty": "easy", "daily_date": date(2026, 12, 4), "started_at": T0,
        "ended_at": None, "actions_count": 0, "undos": 0, "hints": 1, "rescues": 0,
        "auto_completed": False, "assisted": True, "undo_to_winnable": 0, "score": 500,
        "elapsed_ms": None, "points": None, **fields}
    return SoloGame(**values)


def built() -> list[Frame]:
    game = a_game()
    match = seat_match(game, [])
    state = seat_of(match).game.state
    step = core.act(match, 3, 1, legal_actions(state)[0].to_json(), seconds(T0) or 0.0)
    assert step.reply is not None
    after = seat_of(step.match).game.state
    refused = core.act(match, 3, 5, {"op": "deal"}, seconds(T0) or 0.0).reply
    assert refused is not None
    played = [solo_frames.step(2, Undo(), "player", [Undone()])]
    ended = a_game(kind="solo", daily_date=None, started_at=T0, actions_count=3)
    end_game(ended, status="abandoned", at=T0.replace(minute=5))
    award = BadgeAward("first_win", "First win", "Win a game", T0)
    return [
        solo_frames.snapshot(game, state, elapsed_ms=0, offered=False),
        solo_frames.answer(game, after, step.reply, elapsed_ms=1200, offered=True),
        solo_frames.answer(game, state, refused, elapsed_ms=1200, offered=False),
        solo_frames.reject(game, state, 3, "stale_seq", "seq 3 is older"),
        solo_frames.assist(game, after, kind="undo_to_winnable", verdict="way_out",
                           message="back to move 1", steps=played, cost=0,
                           elapsed_ms=9, offered=False),
        solo_frames.hint(41, legal_actions(state)[0], "line", "uncovers a card"),
        solo_frames.hint(41, None, "no_win", "no win from here", undos=3, move=7),
        solo_frames.over(ended),
        frames.badge(award, "solo", 41),
    ]


@pytest.mark.parametrize("frame", built(), ids=lambda f: kind(f))
def test_a_built_solo_frame_is_its_type_exactly(frame: Frame) -> None:
    assert_is_its_type(frame)


def test_a_daily_in_progress_hides_its_number_and_every_game_its_deal() -> None:
    game = a_game()
    snapshot = solo_frames.snapshot(game, start_state(game), elapsed_ms=0, offered=False)
    assert snapshot.number is None and "source_deal" not in as_json(snapshot)
    assert snapshot.view == frames.game_view(start_state(game))  # cards only as seen


def test_the_core_s_answer_is_said_as_solo_says_it() -> None:
    game = a_game()
    match = seat_match(game, [])
    state = seat_of(match).game.state
    step = core.act(match, 3, 1, legal_actions(state)[0].to_json(), seconds(T0) or 0.0)
    assert step.reply is not None and kind(step.reply) == "ack"
    ack = solo_frames.answer(game, seat_of(step.match).game.state, step.reply,
                             elapsed_ms=5, offered=True)
    assert kind(ack) == "solo_ack" and ack.game_id == 41 and "match_id" not in as_json(ack)
    assert (ack.view, ack.events, ack.delta) == (
        step.reply.view, step.reply.events, step.reply.delta)
    again = msgspec.structs.replace(ack, duplicate=True)  # the seat's cached answer, given again
    assert solo_frames.answer(game, state, again, elapsed_ms=99, offered=False) is again
