"""The portfolio's optional switch from the doubling beams (mapping v1's search) to noisy
restarts: off unless asked for, and exact when asked for."""

import pytest

from app.engine.deal import deal
from app.engine.game import replay
from app.engine.rules import preset
from app.engine.solver import schedule, solve
from app.engine.solver.board import Board, board_from_state
from app.engine.solver.replay import verified_actions
from app.engine.solver.schedule import doubling, portfolio, restarts
from app.engine.solver.search import Limits, SearchOutcome

# 1-suit deal 689: the doubling beams need 40,714 nodes (the most of 1,000 random 1-suit
# deals); noisy restarts of width 10 win it in a few thousand.
HARD_ONE_SUIT = 689
# 2-suit deal 116 takes the doubling beams 122,902 nodes: any small budget ends unwon.
LONG_TWO_SUIT = 116


@pytest.fixture
def given(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The node budgets the restarts are given (they run none: an unwon outcome)."""
    budgets: list[int] = []

    def record(board: Board, limits: Limits, *, over_empty: bool, width: int) -> SearchOutcome:
        budgets.append(limits.nodes)
        return SearchOutcome(None, limits.nodes, False, 0.0)

    monkeypatch.setattr(schedule, "restarts", record)
    return budgets


def _board(number: int, suits: int) -> Board:
    return board_from_state(deal(number, preset("classic", suits)))


def test_by_default_the_portfolio_is_the_doubling_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*args: object, **kwargs: object) -> SearchOutcome:
        raise AssertionError("restarts without restart_after")

    monkeypatch.setattr(schedule, "restarts", never)
    board = _board(LONG_TWO_SUIT, 2)
    alone = doubling(board, Limits(8_000), over_empty=False)
    default = portfolio(board, Limits(8_000), over_empty=False)
    assert (default.steps, default.nodes) == (alone.steps, alone.nodes)


def test_within_the_switch_the_portfolio_is_the_doubling_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*args: object, **kwargs: object) -> SearchOutcome:
        raise AssertionError("restarts before the switch")

    monkeypatch.setattr(schedule, "restarts", never)
    board = _board(LONG_TWO_SUIT, 2)
    alone = doubling(board, Limits(3_000), over_empty=False)
    inside = portfolio(board, Limits(3_000), over_empty=False, restart_after=3_000)
    assert alone.steps is None
    assert (inside.steps, inside.nodes) == (alone.steps, alone.nodes)


def test_the_restarts_take_over_at_the_switch_with_what_is_left(given: list[int]) -> None:
    board = _board(LONG_TWO_SUIT, 2)
    before = doubling(board, Limits(3_000), over_empty=False).nodes
    outcome = portfolio(board, Limits(10_000), over_empty=False, restart_after=3_000)
    assert given == [10_000 - before]
    assert outcome.steps is None
    assert outcome.nodes == 10_000


def test_a_deal_the_doubling_misses_within_a_budget_is_won_by_the_restarts() -> None:
    start = deal(HARD_ONE_SUIT, preset("classic", 1))
    board = board_from_state(start)
    assert doubling(board, Limits(20_000), over_empty=False).steps is None
    won = portfolio(board, Limits(20_000), over_empty=False, restart_after=10_000,
                    restart_width=10)
    assert won.steps is not None
    assert 10_000 < won.nodes <= 20_000
    assert replay(start, verified_actions(start, won.steps, must_win=True)).won


def test_restarts_are_deterministic_for_a_budget() -> None:
    board = _board(HARD_ONE_SUIT, 1)
    first = restarts(board, Limits(20_000), over_empty=False, width=10)
    second = restarts(board, Limits(20_000), over_empty=False, width=10)
    assert first.steps is not None
    assert (first.steps, first.nodes) == (second.steps, second.nodes)


def test_solve_passes_restart_after_on_to_the_portfolio(given: list[int]) -> None:
    start = deal(LONG_TWO_SUIT, preset("classic", 2))
    assert solve(start, nodes=5_000).status == "unknown"
    assert given == []
    found = solve(start, nodes=5_000, restart_after=3_000)
    assert found.status == "unknown"
    assert found.nodes == 5_000
    assert len(given) == 1
