"""The last resort of the first-win search (issue 15): beams over every legal move and a
noisy beam, which the doubling runs once it has spent more than any budget of the game.

Past ``RESORT_AFTER`` nodes only; within it the search is mapping v1's node for node."""

import pytest

from app.engine.deal import deal
from app.engine.layout import sketch_state
from app.engine.rules import preset
from app.engine.solver import schedule, solve
from app.engine.solver.board import Board, board_from_state
from app.engine.solver.replay import verified_actions
from app.engine.solver.schedule import (
    DFS_SHARE,
    FIRST_WIDTH,
    RESORT,
    RESORT_AFTER,
    Attempt,
    doubling,
    portfolio,
)
from app.engine.solver.search import (
    Limits,
    SearchOutcome,
    beam,
    depth_first,
)
from app.engine.state import GameState
from app.services.deals import DUEL_SOLVE_NODES

# 2-suit deal 116 takes the doubling 122,902 nodes: small budgets end unwon.
LONG_TWO_SUIT = 116


def _board(number: int, suits: int) -> Board:
    return board_from_state(deal(number, preset("classic", suits)))


def off_suit_escape() -> GameState:
    """One run to go (spades); the 6♠ it needs is under a 5♥, which can only leave by
    going onto the 6♦: a run lying on a card one rank higher moves, in the pruned
    generator, only to join its own suit or to an empty column, and there is none."""
    return sketch_state(
        preset("classic", 4),
        ["Ks Qs Js Ts 9s 8s 7s", "6s 5h", "7d 6d", "Kh / 5s 4s 3s 2s As",
         "Kc", "Kd", "Kh", "Kc", "Kd", "Kh"],
        removed="s s s h h h c",
    )


def test_the_switch_comes_after_every_budget_the_game_uses() -> None:
    from app.engine.solver.advice import OPEN_HINT_NODES, POLISH_NODES
    from app.engine.solver.difficulty import RATING_NODES
    from app.engine.solver.solvable import BUDGET_NODES
    from app.engine.solver.solve import DEFAULT_NODES
    from app.rewards.assist import AUTO_COMPLETE_NODES, RESCUE_NODES

    budgets = [*DUEL_SOLVE_NODES.values(), BUDGET_NODES, RATING_NODES, DEFAULT_NODES,
               RESCUE_NODES, AUTO_COMPLETE_NODES, POLISH_NODES, OPEN_HINT_NODES]
    assert max(budgets) <= RESORT_AFTER


def test_the_last_resort_wins_where_the_pruned_moves_run_dry() -> None:
    state = off_suit_escape()
    board = board_from_state(state)
    pruned = doubling(board, Limits(20_000), over_empty=False)
    assert pruned.steps is None and not pruned.trimmed  # every pruned move was tried
    won = doubling(board, Limits(20_000), over_empty=False, resort_after=10_000)
    assert won.steps is not None
    # the escape is the off-suit move the pruned generator never makes
    assert won.steps[0] == (1, 2, 1)
    verified_actions(state, won.steps, must_win=True)
    again = doubling(board, Limits(20_000), over_empty=False, resort_after=10_000)
    assert (again.steps, again.nodes) == (won.steps, won.nodes)


def test_within_its_switch_a_budget_gets_the_doubling_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*args: object, **kwargs: object) -> SearchOutcome:
        raise AssertionError("the last resort within the switch")

    monkeypatch.setattr(schedule, "_run_attempt", never)
    # a budget no larger than the switch: no resort even when the pruned moves run dry
    dry = doubling(board_from_state(off_suit_escape()), Limits(10_000), over_empty=False,
                   resort_after=10_000)
    assert dry.steps is None
    board = _board(LONG_TWO_SUIT, 2)
    alone = doubling(board, Limits(8_000), over_empty=False)
    inside = doubling(board, Limits(8_000), over_empty=False, resort_after=8_000)
    assert alone.steps is None
    assert (inside.steps, inside.nodes) == (alone.steps, alone.nodes)


def test_the_resort_takes_the_turns_of_the_first_wide_split_and_plain_beams(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = _board(LONG_TWO_SUIT, 2)
    given: list[tuple[Attempt, int]] = []

    def record(board: Board, limits: Limits, attempt: Attempt, *,
               over_empty: bool) -> SearchOutcome:
        given.append((attempt, limits.nodes))
        return SearchOutcome(None, 100, False, 0.0)

    monkeypatch.setattr(schedule, "_run_attempt", record)
    monkeypatch.setattr(schedule, "RESORT_SPLIT_FROM", 80)
    monkeypatch.setattr(schedule, "RESORT_PLAIN_FROM", 160)
    budget = 60_000
    outcome = doubling(board, Limits(budget), over_empty=False, resort_after=1)
    # what the doubling spends before the first turn, the split variant of width 80:
    # depth-first and plain beams 5..80 (variants start at 80)
    spent = depth_first(board, Limits(DFS_SHARE), over_empty=False).nodes
    width = FIRST_WIDTH
    while width <= 80:
        spent += beam(board, Limits(budget - spent), over_empty=False, width=width).nodes
        width *= 2
    early = [attempt for attempt in RESORT if not attempt.late]
    late = [attempt for attempt in RESORT if attempt.late]
    assert early and late
    # the early beams in the split's turn, the late ones right after, in the turn of the
    # plain beam of width 160 (the split variant itself is dropped)
    assert given == [(attempt, budget - spent - 100 * index)
                     for index, attempt in enumerate(early + late)]
    assert outcome.nodes > spent + 100 * len(RESORT)  # the doubling went on after it


def test_the_portfolio_switches_past_resort_after(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []

    def record(board: Board, limits: Limits, *, over_empty: bool,
               resort_after: int | None = None) -> SearchOutcome:
        calls.append(resort_after)
        return SearchOutcome(None, limits.nodes, False, 0.0)

    monkeypatch.setattr(schedule, "doubling", record)
    portfolio(_board(1, 4), Limits(2_000_000), over_empty=False)
    assert calls == [RESORT_AFTER]


def test_solve_wins_with_the_last_resort_and_replays_it() -> None:
    found = solve(off_suit_escape(), nodes=RESORT_AFTER + 1)
    assert found.solved and len(found.actions) >= 3
    assert solve(off_suit_escape(), nodes=RESORT_AFTER).status == "unknown"
