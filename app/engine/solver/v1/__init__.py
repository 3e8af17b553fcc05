"""The search of solver version 1, frozen: it decides which deals are "solvable" (mapping v1).

Deal numbers are forever: the solvable deal of a number, and so the daily deal, are the
first candidate this search wins within a node budget (:mod:`app.engine.solver.solvable`).
Any change to its move order, scoring, beam widths or node counting would silently
change which cards a deal number means. So this package is a copy of the search as it
was when mapping v1 was published, and it is **never edited**: the main search
(:mod:`app.engine.solver.search`) improves freely, and a new mapping version would use
a new frozen copy. ``tests/engine/test_solver_v1.py`` pins its answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.solver.v1.board import Board, Step, board_from_state
from app.engine.solver.v1.search import Limits, portfolio
from app.engine.state import GameState


@dataclass(frozen=True, slots=True)
class V1Outcome:
    """What the v1 search found from a position: the winning steps (None if not won
    within the budget) and the nodes it expanded."""

    steps: tuple[Step, ...] | None
    nodes: int

    @property
    def won(self) -> bool:
        return self.steps is not None


def search_v1(state: GameState, *, nodes: int) -> V1Outcome:
    """The v1 portfolio search from ``state`` with a budget of ``nodes`` (no time cap:
    the answer must be the same on every machine)."""
    if state.won:
        return V1Outcome((), 0)
    board: Board = board_from_state(state)
    outcome = portfolio(board, Limits(nodes=nodes), over_empty=state.rules.deal_over_empty)
    return V1Outcome(outcome.steps, outcome.nodes)
