"""Easy, medium or hard: how much work the solver needed, in nodes (machine-independent).

The thresholds follow the search's stages (see docs/solver.md): a deal the opening
depth-first search wins with little backtracking is easy; one that needs much more
backtracking or the narrow beams is medium; one that needs wide beams (or that the
budget could not crack) is hard.
"""

from typing import Literal

from app.engine.solver.solve import solve
from app.engine.state import GameState

Difficulty = Literal["easy", "medium", "hard"]

EASY_MAX_NODES = 1_000
MEDIUM_MAX_NODES = 10_000


def difficulty_of(nodes: int, *, solved: bool = True) -> Difficulty:
    if not solved or nodes > MEDIUM_MAX_NODES:
        return "hard"
    return "easy" if nodes <= EASY_MAX_NODES else "medium"


RATING_NODES = 100_000
"""Budget for rating a random deal; a deal not won within it is rated hard."""


def rate(state: GameState, *, nodes: int = RATING_NODES) -> Difficulty:
    """The difficulty of a position (a random deal, say) by solving it: full knowledge,
    server-side. Solvable deals carry theirs already (:class:`SolvableDeal`)."""
    found = solve(state, nodes=nodes)
    return difficulty_of(found.nodes, solved=found.solved)
