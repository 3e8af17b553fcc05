"""Easy, medium or hard: how much work the solver needed, in nodes (machine-independent).

The thresholds follow the search's own stages (see docs/solver.md): a deal the
opening depth-first search wins with little backtracking is easy; one it wins only
after real backtracking is medium; one that needs the beam searches (or that the
budget could not crack) is hard.
"""

from typing import Literal

from app.engine.solver.search import DFS_SHARE

Difficulty = Literal["easy", "medium", "hard"]

EASY_MAX_NODES = 1_000
MEDIUM_MAX_NODES = DFS_SHARE


def difficulty_of(nodes: int, *, solved: bool = True) -> Difficulty:
    if not solved or nodes > MEDIUM_MAX_NODES:
        return "hard"
    return "easy" if nodes <= EASY_MAX_NODES else "medium"
