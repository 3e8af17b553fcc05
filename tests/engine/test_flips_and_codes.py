"""Flips, and every illegal-action code of the rule book produced by a real position."""

import re
from pathlib import Path

import pytest

from app.engine import errors
from app.engine.actions import Action, Deal, Flip, Move, Undo
from app.engine.events import CardFlipped
from app.engine.game import apply, check, legal_actions, push
from app.engine.layout import sketch_state
from app.engine.rules import preset

DUEL = preset("duel", 2)
CLASSIC = preset("classic", 2)
# the rule book lives in shared/ beside the checkout (the CI layout) or further up
RULE_BOOKS = [parent / "shared" / "spec" / "rules.md" for parent in Path(__file__).parents]


def code_of(state: object, action: Action) -> str:
    with pytest.raises(errors.IllegalAction) as caught:
        check(state, action)  # type: ignore[arg-type]
    assert caught.value.message and caught.value.code in caught.value.__class__.code
    return caught.value.code


def test_manual_flip_turns_the_top_face_down_card() -> None:
    state = sketch_state(DUEL, ["3c 4c /", "5d"])
    after, events = apply(state, Flip(0))
    assert after.columns[0].up == state.columns[0].down[-1:]
    assert after.columns[0].down == state.columns[0].down[:-1]
    assert events == (CardFlipped(0, state.columns[0].down[-1], automatic=False),)
    assert Flip(0) in legal_actions(state) and Flip(0) not in legal_actions(after)


def test_nothing_to_flip() -> None:
    state = sketch_state(DUEL, ["3c / 4c", "", "5d"])
    assert code_of(state, Flip(0)) == "nothing_to_flip"  # a face-up card on top
    assert code_of(state, Flip(1)) == "nothing_to_flip"  # an empty column
    assert code_of(state, Flip(10)) == "bad_column"
    auto = sketch_state(CLASSIC, ["3c / 4c", "5d"])
    assert code_of(auto, Flip(0)) == "nothing_to_flip"  # never legal under auto flips
    assert not any(isinstance(a, Flip) for a in legal_actions(auto))


def test_every_code_of_the_rule_book_exists_and_is_produced() -> None:
    state = sketch_state(CLASSIC, ["9h 8h", "Ks / 4s", "", "Ah", "6d"])
    barrier = push(sketch_state(DUEL, ["3c /", "5d"]), Flip(0))
    produced = {
        code_of(state, Move(11, 1, 1)),
        code_of(state, Move(1, 1, 1)),
        code_of(state, Move(1, 0, 3)),
        code_of(state, Move(1, 0, 2)),
        code_of(state, Move(0, 3, 1)),
        code_of(state, Move(0, 2, 2)),
        code_of(state, Deal()),
        code_of(sketch_state(CLASSIC, ["Ks"] * 9, stock="As " * 10), Deal()),
        code_of(state, Flip(1)),
        code_of(state, Undo()),
        code_of(barrier, Undo()),
    }
    assert produced == set(errors.ILLEGAL_CODES)
    assert len(errors.ILLEGAL_CODES) == 11


def test_the_codes_are_those_the_rule_book_lists() -> None:
    found = [path for path in RULE_BOOKS if path.exists()]
    if not found:
        pytest.fail("the rule book shared/spec/rules.md is not beside this checkout")
    text = found[0].read_text()
    line = next(line for line in text.splitlines() if line.startswith("- Codes for illegal"))
    following = text[text.index(line):].split("\n\n")[0]
    assert set(re.findall(r"`([a-z_]+)`", following)) == set(errors.ILLEGAL_CODES)
