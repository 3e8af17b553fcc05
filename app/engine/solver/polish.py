"""Polish: after a first win, beams looking for a shorter one (lines a player watches).

The first win of :func:`~app.engine.solver.schedule.portfolio` is found for speed: a
depth-first line wanders, and a narrow beam's line is long. A beam advances one action
per level, so the win it finds at level ``d`` is ``d`` actions long; capping its depth
one below the best line so far makes it look only for a shorter win. Two passes share
the node budget:

1. **root beams** of doubling width from :data:`FIRST_WIDTH`, from the start position;
   a beam that finds nothing shorter does not stop the doubling (beam lengths are
   noisy: a wider beam often wins shorter where a narrower one found nothing);
2. **tail beams** from positions of the best line, at geometric distances from its end
   (10, 20, 40 … actions): the rest of a line is a smaller problem, so a beam wider than
   the root's fits the same nodes, and the line's start is kept.

Deterministic for a given budget (limits are in nodes). See docs/solver.md.
"""

from __future__ import annotations

import time

from app.engine.solver.board import DEAL, Board, Step
from app.engine.solver.moves import deal_row, play
from app.engine.solver.search import Limits, beam

SHORT_NODES = 150_000
"""Polish budget of ``spider solve --short`` and of the benchmark's short lines."""

FIRST_WIDTH = 10
ROOT_SHARE = 0.7
"""Part of the budget the root beams may start in (the tail beams get the rest)."""
FIRST_TAIL = 10
"""Actions from the end where the first tail beam starts; each next one twice as far."""


class _Budget:
    """The polish budget shared by its beams: nodes spent so far, and the time cap."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.used = 0
        self.started = time.perf_counter()

    def left(self, share: float = 1.0) -> Limits | None:
        """What a beam may spend now (None when out of nodes or time)."""
        nodes = int(self.limits.nodes * share) - self.used
        seconds = None
        if self.limits.seconds is not None:
            seconds = self.limits.seconds - (time.perf_counter() - self.started)
            if seconds <= 0:
                return None
        if nodes <= 0:
            return None
        # progress counts on from the nodes already spent
        return Limits(nodes, seconds, self.limits.after(self.used, seconds).progress)


def polish(
    board: Board, steps: tuple[Step, ...], limits: Limits, *, over_empty: bool
) -> tuple[tuple[Step, ...], int]:
    """A win no longer than ``steps`` (a win from ``board``), and the nodes spent."""
    budget = _Budget(limits)
    best, width = _root_beams(board, steps, budget, over_empty)
    best = _tail_beams(board, best, budget, over_empty, width)
    return best, budget.used


def _root_beams(
    board: Board, best: tuple[Step, ...], budget: _Budget, over_empty: bool
) -> tuple[tuple[Step, ...], int]:
    width = FIRST_WIDTH
    while len(best) > 1:
        left = budget.left(ROOT_SHARE)
        if left is None:
            break
        attempt = beam(board, left, over_empty=over_empty, width=width,
                       max_depth=len(best) - 1)
        budget.used += attempt.nodes
        if attempt.steps is not None:
            best = attempt.steps
        elif not attempt.trimmed or attempt.nodes == 0:
            break  # ran dry untrimmed: a wider beam sees nothing more
        width *= 2
    return best, width


def _tail_beams(
    board: Board, best: tuple[Step, ...], budget: _Budget, over_empty: bool, width: int
) -> tuple[Step, ...]:
    back = FIRST_TAIL
    while back < len(best):
        left = budget.left()
        if left is None:
            break
        start = len(best) - back
        attempt = beam(_position(board, best[:start]), left, over_empty=over_empty,
                       width=width, max_depth=back - 1)
        budget.used += attempt.nodes
        if attempt.steps is not None:
            best = best[:start] + attempt.steps
        back *= 2
    return best


def _position(board: Board, steps: tuple[Step, ...]) -> Board:
    """The board after ``steps`` (legal moves from ``board``)."""
    columns, dealt, removed = board.columns, board.dealt, board.removed
    for step in steps:
        if step == DEAL:
            columns, runs = deal_row(columns, board.rows[dealt])
            dealt += 1
        else:
            columns, runs = play(columns, step)
        removed += runs
    return Board(columns, board.rows, dealt, removed)
