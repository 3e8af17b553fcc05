"""The solver on small known positions and a few real deals: every win replays in the engine."""

import pytest

from app.engine.actions import Deal, Flip, Move
from app.engine.deal import deal
from app.engine.game import legal_moves, push, replay
from app.engine.layout import sketch_state
from app.engine.rules import preset
from app.engine.solver import SolverLimitError, difficulty_of, rate, solve
from app.engine.solver.board import board_from_state
from app.engine.solver.moves import all_steps
from app.engine.solver.search import Limits, beam, depth_first
from tests.engine.solver_positions import (
    ONE_SUIT,
    SEVEN_GONE,
    dead_position,
    one_move_from_winning,
    run,
)


def test_one_move_from_a_win_is_found_and_replays_to_a_win() -> None:
    state = one_move_from_winning()
    found = solve(state)
    assert found.status == "solved"
    assert found.actions == (Move(1, 0, 6),)
    assert replay(state, found.actions).won


def test_a_win_that_needs_an_empty_column_and_a_turned_card() -> None:
    # 2s lies face down under K..3: the run must go to an empty column first.
    state = sketch_state(ONE_SUIT, [f"2s / {run(13, 3)}", "As", ""], removed=SEVEN_GONE)
    found = solve(state)
    assert found.status == "solved"
    assert replay(state, found.actions).won
    assert len(found.actions) == 3


def test_the_same_position_under_duel_rules_flips_explicitly() -> None:
    state = sketch_state(
        preset("duel", 1), [f"2s / {run(13, 3)}", "As", ""], removed=SEVEN_GONE
    )
    found = solve(state)
    assert found.solved
    assert any(isinstance(action, Flip) for action in found.actions)
    assert replay(state, found.actions).won


def test_a_dead_position_is_proved_unsolvable_by_the_exhaustive_search() -> None:
    state = dead_position()
    assert solve(state, exhaustive=True).status == "unsolvable"
    # the fast search never claims a proof: its move pruning is not complete
    assert solve(state, nodes=2_000).status == "unknown"


def test_a_real_one_suit_deal_is_solved_and_verified() -> None:
    start = deal(1, ONE_SUIT)
    found = solve(start)
    assert found.solved
    assert sum(isinstance(action, Deal) for action in found.actions) == 5
    assert replay(start, found.actions).won


def test_a_real_two_suit_deal_under_each_preset() -> None:
    for name in ("classic", "relaxed", "duel"):
        start = deal(3, preset(name, 2))
        found = solve(start)
        assert found.solved, name
        assert replay(start, found.actions).won, name


def test_the_same_input_gives_the_same_answer() -> None:
    start = deal(3, preset("classic", 2))
    first, second = solve(start), solve(start)
    assert first.actions == second.actions
    assert first.nodes == second.nodes


def test_a_tiny_budget_gives_unknown_not_a_wrong_answer() -> None:
    found = solve(deal(3, preset("classic", 4)), nodes=50)
    assert found.status == "unknown"
    assert found.actions == ()
    assert found.nodes <= 60


def test_the_beam_alone_also_finds_verified_wins() -> None:
    start = deal(2, ONE_SUIT)
    outcome = beam(board_from_state(start), Limits(nodes=50_000), over_empty=False, width=20)
    assert outcome.steps is not None
    actions = [Deal() if src < 0 else Move(src, dst, count) for src, dst, count in outcome.steps]
    assert replay(start, actions).won


def test_the_complete_move_generator_matches_the_engines_legal_moves() -> None:
    state = deal(5, preset("classic", 4))
    for action in solve(state).actions[:40]:
        board = board_from_state(state)
        engine = {(m.src, m.dst, m.count) for m in legal_moves(state)}
        assert set(all_steps(board.columns)) == engine
        state = push(state, action)


def test_depth_first_exhausts_only_in_complete_mode() -> None:
    board = board_from_state(dead_position())
    assert depth_first(board, Limits(1_000), over_empty=False, complete=True).exhausted
    assert not depth_first(board, Limits(1_000), over_empty=False).exhausted


def test_difficulty_follows_the_node_count() -> None:
    assert difficulty_of(130, suits=1) == "easy"
    assert difficulty_of(131, suits=1) == "medium"
    assert difficulty_of(430, suits=1) == "medium"
    assert difficulty_of(431, suits=1) == "hard"
    assert difficulty_of(490, suits=2) == "easy"
    assert difficulty_of(5_000, suits=2) == "medium"
    assert difficulty_of(7_401, suits=2) == "hard"
    assert difficulty_of(5_000, suits=4) == "easy"
    assert difficulty_of(50_000, suits=4) == "hard"
    assert difficulty_of(120, suits=1, solved=False) == "hard"


@pytest.mark.parametrize("nodes", [0, -5])
def test_a_budget_must_be_positive(nodes: int) -> None:
    with pytest.raises(SolverLimitError):
        solve(one_move_from_winning(), nodes=nodes)


def test_rating_a_position_solves_it() -> None:
    assert rate(one_move_from_winning()) == "easy"
    assert rate(dead_position(), nodes=500) == "hard"
