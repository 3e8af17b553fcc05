"""Easy, medium or hard: how much work the solver needed, in nodes (machine-independent).

The effort rated is that of :func:`solve`'s first win (``Solution.nodes``; polishing a
won line is not effort to *find* it). :func:`difficulty_of` is the one place that turns
it into a class: its thresholds are per suit count, the terciles of that effort on the
benchmark's random deals (``python -m bench.solver`` prints them; how they were chosen
is in docs/solver.md), so about a third of random deals falls in each class. A deal
the solver did not win within its budget is hard.
"""

from typing import Literal

from app.engine.solver.solve import solve
from app.engine.state import GameState

Difficulty = Literal["easy", "medium", "hard"]

THRESHOLDS: dict[int, tuple[int, int]] = {
    1: (130, 430),
    2: (490, 7_400),
    4: (17_000, 36_000),
}
"""Suit count → (most nodes for easy, most nodes for medium): the terciles of the first
win's nodes on 1,000 random deals (1 and 2 suits) and 110 (4 suits; deals not won count
as the hardest), rounded to two significant figures (docs/solver.md, "Difficulty")."""


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
