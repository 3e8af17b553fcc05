"""Actions: text form and JSON form, and that both round-trip."""

import pytest

from app.engine.actions import (
    Action,
    ActionFormatError,
    Deal,
    Flip,
    Move,
    Undo,
    action_from_json,
    parse_action,
)

EXAMPLES: list[tuple[Action, str, dict[str, object]]] = [
    (Move(3, 7), "m3>7", {"op": "move", "from": 3, "to": 7, "count": 1}),
    (Move(3, 7, 2), "m3>7x2", {"op": "move", "from": 3, "to": 7, "count": 2}),
    (Move(0, 9, 13), "m0>9x13", {"op": "move", "from": 0, "to": 9, "count": 13}),
    (Deal(), "d", {"op": "deal"}),
    (Flip(4), "f4", {"op": "flip", "col": 4}),
    (Undo(), "u", {"op": "undo"}),
    # out-of-range values are illegal actions, not unreadable ones: they still round-trip
    (Move(12, -1, 0), "m12>-1x0", {"op": "move", "from": 12, "to": -1, "count": 0}),
]


@pytest.mark.parametrize(("action", "text", "data"), EXAMPLES)
def test_forms(action: Action, text: str, data: dict[str, object]) -> None:
    assert action.text() == text
    assert parse_action(text) == action
    assert action.to_json() == data
    assert action_from_json(data) == action


def test_a_count_of_one_may_be_written() -> None:
    assert parse_action("m3>7x1") == Move(3, 7, 1)


@pytest.mark.parametrize("text", ["", "m3", "m3>", "m>7", "m3>7x", "D", "f", "fx", "u1", " d",
                                  "m3>7 ", "m3>7x2x3", "m1234567890>1"])
def test_bad_text(text: str) -> None:
    with pytest.raises(ActionFormatError):
        parse_action(text)


def test_unknown_fields_are_named_in_order_and_a_full_action_passes() -> None:
    with pytest.raises(ActionFormatError, match=r"'deal' has unknown field\(s\): a, z$"):
        action_from_json({"op": "deal", "z": 1, "a": 2})
    with pytest.raises(ActionFormatError, match=r"unknown field\(s\): 7, col$"):
        action_from_json({"op": "undo", "col": 1, 7: 0})  # not JSON, still no crash
    assert action_from_json({"op": "flip", "col": 4}) == Flip(4)
