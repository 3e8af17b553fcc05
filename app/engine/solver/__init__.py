"""The solver: full-information search for Spider, and what the game uses it for.

- :func:`solve` — a verified win from any position, or a proof/admission there is none.
- :func:`hint` (player's knowledge only), :func:`rescue` and :func:`finish` (full
  knowledge, server-side).
- :func:`solvable_deal` — deal numbers mapped to deals the solver has won.
- :func:`difficulty_of` — easy / medium / hard from the solver's effort.

Pure: no I/O. See docs/solver.md.
"""

from app.engine.solver.advice import (
    NotFinishable,
    Rescue,
    Suggestion,
    can_finish,
    finish,
    hint,
    rescue,
)
from app.engine.solver.difficulty import Difficulty, difficulty_of, rate
from app.engine.solver.replay import SolutionRejected
from app.engine.solver.solvable import (
    SolvableDeal,
    solvable_by_default,
    solvable_deal,
    start_of,
)
from app.engine.solver.solve import Solution, SolverLimitError, solve

__all__ = [
    "Difficulty",
    "NotFinishable",
    "Rescue",
    "Solution",
    "SolutionRejected",
    "SolvableDeal",
    "SolverLimitError",
    "Suggestion",
    "can_finish",
    "difficulty_of",
    "finish",
    "hint",
    "rate",
    "rescue",
    "solvable_by_default",
    "solvable_deal",
    "solve",
    "start_of",
]
