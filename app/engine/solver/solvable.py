"""Deal numbers that are guaranteed solvable: deal number N → a deal the solver has won.

Mapping, version 1 (documented in docs/solver.md; changing the candidates, the rules
solved under, the budget or the solver's search order needs a new version):

- Candidate 0 is deal N of the built-in generator itself; candidate k ≥ 1 is the
  generator deal whose number is the first 6 bytes (big-endian) of the SHA-256 of
  ``spider-duel/solvable/v1/{suits}/{N}/{k}``, plus one.
- Each candidate is solved under the ``classic`` rules (the strictest preset: a win
  there is also a win under ``relaxed`` and ``duel``) by :func:`solve` with a budget of
  :data:`BUDGET_NODES` nodes; the first one won is deal N's solvable deal. Only the
  first-win search decides (:func:`~app.engine.solver.schedule.portfolio`: polishing and
  shortening come after a win and do not change which candidate wins). That search is
  the one mapping v1 was published with, node for node (``tests/engine/
  test_solver_solvable.py`` pins numbers of every suit count): changing its move order,
  scoring, widths or node counting needs a new mapping version.

Because limits are in nodes, the mapping is the same on every machine. Results are
cached in memory (a pure function of ``(N, suits)``), so the cost is paid once per
process; a server can also pre-compute a pool.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

from app.engine.actions import Action
from app.engine.deal import deal
from app.engine.rules import Rules, preset
from app.engine.solver.difficulty import Difficulty, difficulty_of
from app.engine.solver.solve import solve
from app.engine.state import GameState

MAPPING_VERSION = 1
BUDGET_NODES = 20_000
MAX_CANDIDATES = 1_000


class NoSolvableDeal(RuntimeError):
    """No candidate of a deal number was won within the budget (never seen in practice)."""


@dataclass(frozen=True, slots=True)
class SolvableDeal:
    """Deal ``number``'s solvable deal: generator deal ``source`` (candidate ``attempt``)."""

    number: int
    suits: int
    source: int
    attempt: int
    nodes: int
    """Nodes the search expanded to win it: its effort, which ``difficulty`` rates."""
    difficulty: Difficulty
    solution: tuple[Action, ...]
    """A verified win under the ``classic`` rules (shortened where it came back near itself)."""


def candidate_number(number: int, suits: int, attempt: int) -> int:
    if attempt == 0:
        return number
    text = f"spider-duel/solvable/v{MAPPING_VERSION}/{suits}/{number}/{attempt}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big") + 1


@lru_cache(maxsize=4096)
def solvable_deal(number: int, suits: int) -> SolvableDeal:
    """The solvable deal of ``number`` (see the module docstring); cached."""
    rules = preset("classic", suits)
    for attempt in range(MAX_CANDIDATES):
        source = candidate_number(number, suits, attempt)
        found = solve(deal(source, rules), nodes=BUDGET_NODES)
        if found.solved:
            return SolvableDeal(number, suits, source, attempt, found.nodes,
                                difficulty_of(found.nodes, suits=suits), found.actions)
    raise NoSolvableDeal(f"no solvable candidate for deal {number} with {suits} suits")


def solvable_by_default(suits: int) -> bool:
    """"Solvable only" is the default for 1 and 2 suits; 4-suit deals are random by default."""
    return suits in (1, 2)


def start_of(number: int, rules: Rules, *, solvable_only: bool) -> GameState:
    """The starting position of deal ``number`` under ``rules``.

    With ``solvable_only`` the cards are those of the solvable deal (which may take the
    solver a moment the first time); without, the generator's deal ``number``.
    """
    source = solvable_deal(number, rules.suits).source if solvable_only else number
    return deal(source, rules)
