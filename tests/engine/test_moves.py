"""Building moves, one rule at a time, under every preset where the presets differ."""

import pytest

from app.engine import errors
from app.engine.actions import Action, Move
from app.engine.events import CardsMoved
from app.engine.game import apply, check, is_legal, legal_moves, movable_run_length
from app.engine.layout import sketch_state
from app.engine.rules import Rules, preset, with_options
from app.engine.state import GameState

CLASSIC = preset("classic", 4)
DUEL = preset("duel", 4)
RELAXED = preset("relaxed", 4)
ALL_PRESETS = [CLASSIC, RELAXED, DUEL]


def run(suit: str, top: int = 13, bottom: int = 1) -> str:
    """The cards ``top`` down to ``bottom`` of one suit, as sketch text."""
    return " ".join("A23456789TJQK"[rank - 1] + suit for rank in range(top, bottom - 1, -1))


def code_of(state: GameState, action: Action) -> str:
    with pytest.raises(errors.IllegalAction) as caught:
        check(state, action)
    return caught.value.code


@pytest.mark.parametrize("rules", ALL_PRESETS, ids=lambda r: r.preset)
def test_a_card_goes_onto_one_rank_higher_whatever_its_suit(rules: Rules) -> None:
    state = sketch_state(rules, ["Kc / 8h", "9s", "Qd"])
    after, events = apply(state, Move(0, 1, 1))
    assert after.columns[1].up == (*state.columns[1].up, state.columns[0].up[0])
    assert isinstance(events[0], CardsMoved)
    assert events[0].onto == state.columns[1].up[-1]
    assert code_of(state, Move(0, 2, 1)) == "bad_target"  # 8 onto Q


@pytest.mark.parametrize("rules", ALL_PRESETS, ids=lambda r: r.preset)
def test_nothing_goes_onto_an_ace(rules: Rules) -> None:
    state = sketch_state(rules, ["As", "Ks", "2s", "Ah"])
    for src in (1, 2, 3):
        assert code_of(state, Move(src, 0, 1)) == "bad_target"
    assert not any(move.dst == 0 for move in legal_moves(state))


@pytest.mark.parametrize("rules", ALL_PRESETS, ids=lambda r: r.preset)
def test_a_king_goes_only_into_an_empty_column(rules: Rules) -> None:
    state = sketch_state(rules, ["Qs / Ks", "Ah", "Qh", "", "Kh"])
    for dst in (1, 2, 4):
        assert code_of(state, Move(0, dst, 1)) == "bad_target"
    assert is_legal(state, Move(0, 3, 1))
    assert {m.dst for m in legal_moves(state) if m.src == 0} == {3, 5, 6, 7, 8, 9}  # empties


def test_a_movable_run_is_face_up_descending_and_of_one_suit() -> None:
    state = sketch_state(CLASSIC, ["Kc / 9h 8s 7s 6s", "9d", "8c", run("h", 5, 3)])
    assert movable_run_length(state.columns[0]) == 3  # 8s 7s 6s; 9h is another suit
    assert movable_run_length(state.columns[3]) == 3
    assert is_legal(state, Move(0, 1, 3))  # 8s-7s-6s onto 9d
    assert code_of(state, Move(0, 1, 4)) == "not_movable"  # 9h breaks the suit
    assert code_of(state, Move(0, 1, 2)) == "bad_target"  # 7s onto 9d


def test_a_face_down_card_never_moves() -> None:
    state = sketch_state(CLASSIC, ["Kc Qc / Jc", "Qd", ""])
    assert code_of(state, Move(0, 1, 2)) == "not_movable"
    assert code_of(state, Move(0, 2, 3)) == "not_movable"


def test_more_cards_than_the_column_holds_is_bad_count() -> None:
    state = sketch_state(CLASSIC, ["Kc Qc / Jc", "Qd", ""])
    assert code_of(state, Move(0, 1, 4)) == "bad_count"
    assert code_of(state, Move(0, 1, 0)) == "bad_count"
    assert code_of(state, Move(0, 1, -2)) == "bad_count"
    assert code_of(state, Move(2, 1, 1)) == "bad_count"  # an empty column has nothing to move


def test_columns_outside_0_to_9_and_the_same_column_are_refused() -> None:
    state = sketch_state(CLASSIC, ["Jc", "Qd"])
    assert code_of(state, Move(10, 1, 1)) == "bad_column"
    assert code_of(state, Move(-1, 1, 1)) == "bad_column"
    assert code_of(state, Move(0, 10, 1)) == "bad_column"
    assert code_of(state, Move(1, 1, 1)) == "same_column"


@pytest.mark.parametrize("rules", ALL_PRESETS, ids=lambda r: r.preset)
def test_an_empty_column_takes_any_card_or_run(rules: Rules) -> None:
    state = sketch_state(rules, ["Kc / 9h 8h 7h", "", "Kd / 3s"])
    for count in (1, 2, 3):
        assert is_legal(state, Move(0, 1, count))
    assert is_legal(state, Move(2, 1, 1))


@pytest.mark.parametrize("rules", ALL_PRESETS, ids=lambda r: r.preset)
def test_a_whole_column_into_an_empty_one_is_pointless(rules: Rules) -> None:
    state = sketch_state(rules, ["9h 8h 7h", "", "Qs"])
    assert code_of(state, Move(0, 1, 3)) == "pointless"
    assert is_legal(state, Move(0, 1, 2))  # part of it is fine
    assert code_of(state, Move(2, 1, 1)) == "pointless"
    assert Move(0, 1, 3) not in legal_moves(state)


def test_manual_flip_a_face_down_only_column_counts_as_empty_for_building() -> None:
    state = sketch_state(DUEL, ["3c 4c /", "Ks Qs", "Jd"])
    after, events = apply(state, Move(1, 0, 2))  # a king and its run on the face-down cards
    assert len(after.columns[0].down) == 2 and len(after.columns[0].up) == 2
    assert isinstance(events[0], CardsMoved) and events[0].onto is None
    # whole column onto face-down cards: the target is not "a column with no cards at all"
    assert is_legal(state, Move(2, 0, 1))


def test_auto_flip_a_face_down_only_column_cannot_be_built_on() -> None:
    # only reachable by a hand-built manual position replayed under auto rules: the engine
    # refuses it rather than guess
    manual_auto = with_options(DUEL, flip="auto")
    with pytest.raises(ValueError, match="not settled"):
        sketch_state(manual_auto, ["3c 4c /", "Ks"])


def test_moving_a_run_off_a_run_uncovers_and_completes_under_auto_flip() -> None:
    state = sketch_state(CLASSIC, ["5d / " + run("s", 13, 2), "As", "3h / 2h"])
    after, events = apply(state, Move(1, 0, 1))
    assert [type(e).__name__ for e in events] == ["CardsMoved", "RunCompleted", "CardFlipped"]
    assert after.columns[0].up and after.columns[0].up[0] & 63 == (5 | 2 << 4)
    assert not after.columns[0].down
    assert len(after.removed) == 1
