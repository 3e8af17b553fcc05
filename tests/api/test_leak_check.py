"""The leak check catches what it is meant to catch, so a green duel test means something."""

import copy
from typing import Any

import msgspec
import pytest

from app.engine.layout import state_from_layout
from app.engine.rules import rules_from_json
from app.engine.view import player_view
from tests.support.duel_layouts import RULES, WINNING_LINE, near_finished_layout
from tests.support.leaks import check_frames, positions

ANN = 1


def states() -> dict[int, list[Any]]:
    start = state_from_layout(rules_from_json(RULES), near_finished_layout())
    return {ANN: positions(start, WINNING_LINE[:3])}


def ack(after: int) -> dict[str, Any]:
    view = msgspec.to_builtins(player_view(states()[ANN][after]))  # as a client reads it
    return {"type": "ack", "n": 1, "match_id": 1, "seq": after, "view": view, "events": []}


def test_honest_frames_pass() -> None:
    assert check_frames([(ANN, ack(2)), (ANN, ack(3))], states()) == 2


@pytest.mark.parametrize("tamper", [
    lambda f: f["view"].__setitem__("stock", ["9s"] * 10),  # the stock order
    lambda f: f["view"]["columns"][2].__setitem__("down", ["2s"]),  # a face-down card
    lambda f: f["view"]["columns"][2].__setitem__("up", ["2s", "Qs"]),  # shown, not up
    lambda f: f.__setitem__("deal", {"number": 77}),  # the deal number
    lambda f: f.__setitem__("play", {"n": 77}),  # the solo deal that deals it again
    lambda f: f.__setitem__("events", [{"kind": "flipped", "col": 1, "card": "2s"}]),
    lambda f: f.__setitem__("hint", "As"),  # a card name where no card belongs
])
def test_tampered_frames_fail(tamper: Any) -> None:
    frame = copy.deepcopy(ack(2))
    tamper(frame)
    with pytest.raises(AssertionError):
        check_frames([(ANN, frame)], states())
