"""The engine's values as the collector sees them, and what they carry beside the position.

Positions, columns and events are structs the cyclic collector does not track
(app/engine/values.py); columns carry move-generation facts; a position links to the one
undo returns to. Over random games (hypothesis) all of it must equal what a rebuild from
scratch gives, and the history must be the stack an independent model keeps.
"""

import gc
import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.actions import Move, Undo
from app.engine.cards import FACE
from app.engine.deal import deal
from app.engine.errors import IllegalAction
from app.engine.game import apply, is_legal, legal_actions, legal_moves, replay
from app.engine.layout import sketch_state
from app.engine.rules import preset
from app.engine.state import Column, GameState
from tests.engine.strategies_engine import ANY_ACTION, start_states
from tests.engine.test_engine_properties import is_final

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_from_scratch(up: tuple[int, ...]) -> int:
    """The movable run on top of ``up``, counted card by card."""
    count = 0
    for i in range(len(up) - 1, -1, -1):
        if count and (up[i] & FACE) != (up[i + 1] & FACE) + 1:
            break
        count += 1
    return count


def rebuilt(state: GameState) -> GameState:
    """The same position and history, every column made anew from its cards alone."""
    columns = tuple(Column(column.down, column.up) for column in state.columns)
    return GameState(state.rules, columns, state.stock, state.removed, state.actions,
                     state.barrier, state.history)


def undo_chain(state: GameState) -> list[object]:
    positions = []
    earlier = state.previous
    while earlier is not None:
        positions.append(earlier.position)
        earlier = earlier.previous
    return positions


@SETTINGS
@given(st.data(), start_states())
def test_columns_and_histories_equal_a_rebuild_from_scratch(
    data: st.DataObject, start: GameState
) -> None:
    state = start
    model: list[GameState] = []  # what undo must return to, newest last
    for _ in range(60):
        legal = legal_actions(state)
        if legal and data.draw(st.integers(0, 5)) > 0:
            action = data.draw(st.sampled_from(legal))
        else:
            action = data.draw(ANY_ACTION)
        try:
            after, events = apply(state, action)
        except IllegalAction:
            continue
        if isinstance(action, Undo):
            model.pop()
        elif state.rules.undo == "all" or not is_final(action, events):
            model.append(state)
        else:
            model.clear()
        for column in after.columns:
            assert column.top_rank == (column.up[-1] & 15 if column.up else 0)
            assert column.movable == run_from_scratch(column.up)
            again = Column(column.down, column.up)
            assert again == column and hash(again) == hash(column)
        copy = rebuilt(after)
        assert copy == after and hash(copy) == hash(after)
        assert undo_chain(after) == [earlier.position for earlier in reversed(model)]
        assert (after.previous is state) == bool(model and model[-1] is state)
        state = after


@SETTINGS
@given(st.data(), start_states())
def test_legal_moves_are_every_legal_move_in_order(data: st.DataObject, start: GameState) -> None:
    state = start
    for _ in range(25):
        every = [
            Move(src, dst, count)
            for src in range(10)
            for count in range(1, 14)
            for dst in range(10)
            if is_legal(state, Move(src, dst, count))
        ]
        assert legal_moves(state) == every  # by source, then count, then target
        legal = legal_actions(state)
        if not legal:
            break
        state = apply(state, data.draw(st.sampled_from(legal)))[0]


def test_positions_columns_and_events_are_not_tracked_by_the_collector() -> None:
    state = deal(5, preset("classic", 2))
    for _ in range(200):
        state, events = apply(state, legal_actions(state)[0])
        assert not any(gc.is_tracked(event) for event in events)
    gc.collect()
    assert not gc.is_tracked(state) and not gc.is_tracked(state.columns[0])
    assert not gc.is_tracked(state.columns) and not gc.is_tracked(state.history)


def test_a_long_history_adds_no_object_for_the_collector_to_walk() -> None:
    start = sketch_state(preset("classic", 1), ["9s 8s", "Ts", "Js"])
    actions = [Move(0, 3, 1), Move(3, 0, 1)] * 2000
    replay(start, actions[:2])  # anything made once, the first time, is made now
    gc.collect()
    before = len(gc.get_objects())
    kept = replay(start, actions)
    gc.collect()
    assert kept.actions == 4000 and len(undo_chain(kept)) == 4000
    assert len(gc.get_objects()) - before < 50  # the old dataclasses: ~4 per action


def test_a_very_long_history_is_freed_without_deep_recursion() -> None:
    # Untracked structs are freed one C call per link; the tuple in each link lets the
    # interpreter unwind the chain instead. On a small thread stack, 20,000 bare links
    # overflowed it (a crash, not an exception).
    start = sketch_state(preset("classic", 1), ["9s 8s", "Ts", "Js"])
    held = [replay(start, [Move(0, 3, 1), Move(3, 0, 1)] * 10_000)]
    assert held[0].actions == 20_000
    freed = threading.Event()

    def free() -> None:
        held.clear()
        freed.set()

    size = threading.stack_size(256 * 1024)
    try:
        worker = threading.Thread(target=free)
        worker.start()
    finally:
        threading.stack_size(size)
    worker.join()
    assert freed.is_set()
