"""GameState and Column are immutable values; long histories compare without recursion."""

import dataclasses
import pickle

import pytest

from app.engine.actions import Action, Move, Undo
from app.engine.game import legal_moves, push, replay
from app.engine.layout import sketch_state
from app.engine.rules import preset
from app.engine.state import Column, GameState


def long_game(length: int) -> tuple[GameState, list[Action]]:
    start = sketch_state(preset("classic", 1), ["9s 8s", "Ts", "Js"])
    actions = [Move(0, 3, 1), Move(3, 0, 1)] * (length // 2)
    return start, actions


def test_states_are_frozen() -> None:
    state = sketch_state(preset("duel", 1), ["9s"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.actions = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.columns[0].up = ()  # type: ignore[misc]
    assert Column((1,), (2,)) == Column((1,), (2,))
    assert len(Column((1,), (2, 3))) == 3 and Column((), ()).empty


def test_long_histories_compare_hash_and_print() -> None:
    start, actions = long_game(5000)
    one = replay(start, actions)
    two = replay(start, actions)
    assert one == two and hash(one) == hash(two)
    assert len(repr(one)) < 5000  # the history is not printed
    assert {one, two} == {one}


def test_a_different_history_is_a_different_state() -> None:
    start = sketch_state(preset("classic", 2), ["9h 8s", "9d", "Js", ""])
    there_and_back = replay(start, [Move(0, 3, 1), Move(3, 0, 1), Move(0, 1, 1)])
    via_empty = replay(start, [Move(0, 1, 1), Move(1, 3, 1), Move(3, 1, 1)])
    assert there_and_back.position == via_empty.position
    assert there_and_back.actions == via_empty.actions
    assert hash(there_and_back) == hash(via_empty)
    assert there_and_back != via_empty  # their undo stacks differ
    assert push(there_and_back, Undo()) != push(via_empty, Undo())
    assert legal_moves(there_and_back) == legal_moves(via_empty)


def test_long_histories_pickle_for_the_solver_processes() -> None:
    """A position goes to a solver process by pickle (hint, rescue, auto-complete). A long
    solo game's undo chain, pickled link by link, overflowed pickle's recursion limit
    (found by the hint bot at a 4-suit game's auto-complete offer)."""
    start, actions = long_game(5000)
    state = replay(start, actions)
    for protocol in (pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL):
        back = pickle.loads(pickle.dumps(state, protocol=protocol))
        assert back == state  # the whole history, link by link
        assert back.actions == state.actions and back.previous == state.previous
    undone = push(back, Undo())
    assert undone == push(state, Undo())
    # Positions shared along the chain stay shared once unpickled (one copy each).
    assert back.previous is not None and back.previous.previous is not None
    assert back.columns[1] is back.previous.previous.columns[1]
