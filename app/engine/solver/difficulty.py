"""Easy, medium or hard: how much work the solver needed, in nodes (machine-independent).

The thresholds are per suit count, set at the terciles of the solver's effort on the
benchmark's random deals (docs/solver.md): about a third of random deals falls in each
class. A deal the solver did not win within its budget is hard.
"""

from typing import Literal

from app.engine.solver.solve import solve
from app.engine.state import GameState

Difficulty = Literal["easy", "medium", "hard"]

THRESHOLDS: dict[int, tuple[int, int]] = {
    1: (150, 500),
    2: (400, 7_000),
    4: (23_000, 37_000),
}
"""Suit count → (most nodes for easy, most nodes for medium)."""


def difficulty_of(nodes: int, *, suits: int, solved: bool = True) -> Difficulty:
    easy, medium = THRESHOLDS[suits]
    if not solved or nodes > medium:
        return "hard"
    return "easy" if nodes <= easy else "medium"


RATING_NODES = 100_000
"""Budget for rating a random deal; a deal not won within it is rated hard."""


def rate(state: GameState, *, nodes: int = RATING_NODES) -> Difficulty:
    """The difficulty of a position (a random deal, say) by solving it: full knowledge,
    server-side. Solvable deals carry theirs already (:class:`SolvableDeal`)."""
    found = solve(state, nodes=nodes)
    return difficulty_of(found.nodes, suits=state.rules.suits, solved=found.solved)
