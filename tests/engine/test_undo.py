"""Undo: unlimited under ``all``; moves only, one by one, up to a barrier under ``moves``."""

import pytest

from app.engine import errors
from app.engine.actions import Action, Deal, Flip, Move, Undo
from app.engine.game import apply, check, legal_actions, push, replay
from app.engine.layout import sketch_state
from app.engine.rules import Rules, preset, with_options
from app.engine.state import GameState

CLASSIC = preset("classic", 4)
DUEL = preset("duel", 4)
ROW = "2s 3s 4s 5s 6s 7s 8s 9s Ts Jh"


def run(suit: str, top: int = 13, bottom: int = 1) -> str:
    return " ".join("A23456789TJQK"[rank - 1] + suit for rank in range(top, bottom - 1, -1))


def undo_code(state: GameState) -> str:
    with pytest.raises(errors.IllegalAction) as caught:
        check(state, Undo())
    return caught.value.code


def test_nothing_to_undo_at_the_start_under_every_preset() -> None:
    for name in ("classic", "relaxed", "duel"):
        state = sketch_state(preset(name, 1), ["9s", "Th"])
        assert undo_code(state) == "nothing_to_undo"
        assert Undo() not in legal_actions(state)


def test_classic_undoes_every_action_back_to_the_start() -> None:
    start = sketch_state(
        CLASSIC,
        ["Qd / " + run("h", 13, 2), "5c / Ah", "Kc / 8h", "9s", "", "Tc"] + ["Kd"] * 4,
        stock=ROW,
    )
    actions: list[Action] = [
        Move(2, 3, 1),  # uncovers Kc (automatic flip)
        Move(1, 0, 1),  # completes hearts, flips Qd and 5c
        Move(3, 4, 1),  # into the empty column
        Deal(),
    ]
    states = [start]
    for action in actions:
        states.append(push(states[-1], action))
    assert len(states[-1].removed) == 1
    state = states[-1]
    for earlier in reversed(states[:-1]):
        state = push(state, Undo())
        assert state.position == earlier.position
    assert undo_code(state) == "nothing_to_undo"
    assert state.actions == 2 * len(actions)  # undos are actions too


def test_undo_restores_cards_turned_up_the_stock_and_removed_runs() -> None:
    start = sketch_state(CLASSIC, ["Qd / " + run("h", 13, 2), "5c / Ah"] + ["Kh"] * 8, stock=ROW)
    done = replay(start, [Move(1, 0, 1), Deal()])
    back = replay(done, [Undo(), Undo()])
    assert back.position == start.position
    assert back.columns[0].down == start.columns[0].down  # Qd went back face down


@pytest.mark.parametrize(
    ("name", "setup", "barrier"),
    [
        ("flip", ["3c / 4c", "5d"], [Move(0, 1, 1), Flip(0)]),
        ("deal", ["3c / 4c", "5d"], [Deal()]),
        ("completed run", ["Qc / " + run("h", 13, 2) + "", "5d / Ah"], [Move(1, 0, 1)]),
    ],
)
def test_duel_barriers(name: str, setup: list[str], barrier: list[Action]) -> None:
    rows = [*setup] + ["Kd"] * (10 - len(setup))
    start = sketch_state(DUEL, rows, stock=ROW)
    after = replay(start, barrier)
    assert undo_code(after) == "undo_barrier", name
    assert Undo() not in legal_actions(after)


def test_duel_undoes_moves_one_by_one_up_to_the_barrier() -> None:
    start = sketch_state(DUEL, ["3c / 4c", "5d", "9h", "Th", "", "8s"], stock=ROW)
    a = push(start, Move(0, 1, 1))  # 4c onto 5d
    b = push(a, Flip(0))  # barrier
    c = push(b, Move(5, 2, 1))  # 8s onto 9h
    e = push(c, Move(2, 4, 1))  # 8s into the empty column
    f = push(e, Undo())
    assert f.position == c.position
    g = push(f, Undo())
    assert g.position == b.position
    assert undo_code(g) == "undo_barrier"
    # the position keeps its history: a move after the barrier can be undone again
    h = push(g, Move(5, 2, 1))
    assert push(h, Undo()).position == b.position


def test_duel_a_move_that_turned_a_card_up_is_a_barrier_under_auto_flip() -> None:
    auto_duel = with_options(DUEL, flip="auto")
    start = sketch_state(auto_duel, ["3c / 4c", "5d", "9h", "8h"])
    moved = push(start, Move(3, 2, 1))
    uncovered = push(moved, Move(0, 1, 1))  # 3c turns up by itself
    assert undo_code(uncovered) == "undo_barrier"
    assert push(moved, Undo()).position == start.position


def test_duel_undo_of_a_plain_move_and_then_nothing() -> None:
    start = sketch_state(DUEL, ["9h", "Th"])
    moved = push(start, Move(0, 1, 1))
    back, undo_events = apply(moved, Undo())
    assert back.position == start.position
    assert undo_code(back) == "nothing_to_undo"
    assert type(undo_events[0]).__name__ == "ActionUndone"


@pytest.mark.parametrize("rules", [CLASSIC, DUEL], ids=lambda r: r.undo)
def test_undo_is_not_undoable(rules: Rules) -> None:
    start = sketch_state(rules, ["9h", "Th", "Js"])
    two = replay(start, [Move(0, 1, 1), Move(1, 2, 2)])
    one = push(two, Undo())
    zero = push(one, Undo())
    assert zero.position == start.position
    assert undo_code(zero) == "nothing_to_undo"


def test_classic_undoes_a_move_that_completed_a_run_and_a_deal() -> None:
    start = sketch_state(CLASSIC, ["Qd / " + run("h", 13, 2), "5c / Ah"] + ["Kh"] * 8, stock=ROW)
    completed = push(start, Move(1, 0, 1))
    dealt = push(completed, Deal())
    assert push(dealt, Undo()).position == completed.position
    assert push(push(dealt, Undo()), Undo()).position == start.position


def test_duel_undo_policy_all_makes_flips_and_deals_undoable() -> None:
    generous = with_options(DUEL, undo="all")
    start = sketch_state(generous, ["3c /", "5d"] + ["Kd"] * 8, stock=ROW)
    flipped = push(start, Flip(0))
    dealt = push(flipped, Deal())
    assert replay(dealt, [Undo(), Undo()]).position == start.position
