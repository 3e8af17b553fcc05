"""The schedule of the first-win search: which :mod:`search` runs when, within one budget.

:func:`portfolio` (what ``solve`` runs) is :func:`doubling` — a depth-first attempt, then
beams of doubling width with split variants — and, past :data:`RESORT_AFTER` nodes, its
last resort; :func:`restarts` are the opt-in noisy beams. See ``docs/solver.md``
("Search") for the algorithm and the measurements behind each constant.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Literal

from app.engine.solver.board import Board, Step
from app.engine.solver.search import MAX_DEPTH, Limits, SearchOutcome, beam, depth_first

DFS_SHARE = 5_000
"""Nodes the opening depth-first attempt may spend (most 1- and 2-suit deals need far fewer)."""

FIRST_WIDTH = 5

VARIANT_WIDTH = 80
"""From this width on, each beam is followed by one that may also split runs into an
empty column: different deals need different freedoms, and the variant costs nothing
for the many deals won before (by then the solvable-deal budget is long spent)."""

RESTART_WIDTH = 500
"""Width of each restart's beam (30 s trials on the lost 4-suit deals: 500 won 2, 250 won 1)."""
RESTART_NOISE = 700
"""Span of the noise added to a restart's scores: under one unit of disorder (1000), so
it reorders positions of equal disorder and rarely lets a messier one pass a tidier one."""


def portfolio(
    board: Board, limits: Limits, *, over_empty: bool, restart_after: int | None = None,
    restart_width: int = RESTART_WIDTH,
) -> SearchOutcome:
    """:func:`doubling` with its last resort past :data:`RESORT_AFTER` nodes; with
    ``restart_after``, the doubling alone and then :func:`restarts` once it has spent that
    many.

    Without ``restart_after`` (what the game and the benchmark run) this is the search of
    mapping v1 for any budget up to :data:`RESORT_AFTER` (every budget the game uses),
    node for node. With it, a search that ends within ``restart_after`` nodes is still that
    one node for node; past it, the restarts get the rest of the budget. Measured on the
    4-suit deals (docs/solver.md, "Search" and "Measured for issue 15"): switching at
    400,000 nodes won 4 of the 12 deals the doubling loses within 60 s but lost 7 of the
    22 it wins past 400,000 nodes, so it is off.
    """
    started = time.perf_counter()
    if restart_after is None:
        return doubling(board, limits, over_empty=over_empty, resort_after=RESORT_AFTER)
    switch = min(limits.nodes, restart_after)
    first = doubling(board, Limits(switch, limits.seconds, limits.progress),
                     over_empty=over_empty)
    if (first.steps is not None or first.exhausted or not first.trimmed
            or limits.nodes <= switch):
        return first
    seconds = None
    if limits.seconds is not None:
        seconds = limits.seconds - (time.perf_counter() - started)
        if seconds <= 0:
            return first
    second = restarts(board, limits.after(first.nodes, seconds), over_empty=over_empty,
                      width=restart_width)
    return SearchOutcome(second.steps, first.nodes + second.nodes, False,
                   time.perf_counter() - started)


def restarts(
    board: Board, limits: Limits, *, over_empty: bool, width: int = RESTART_WIDTH
) -> SearchOutcome:
    """Beams of ``width`` with noisy scores, a new seed each, until one wins.

    Every other one may split runs into an empty column (as the doubling's variants).
    The seeds are the restart's index, so the search is as deterministic as the rest.
    """
    started = time.perf_counter()
    used = 0
    seed = 0
    while used < limits.nodes:
        seconds = None
        if limits.seconds is not None:
            seconds = limits.seconds - (time.perf_counter() - started)
            if seconds <= 0:
                break
        attempt = beam(board, limits.after(used, seconds), over_empty=over_empty,
                       width=width, split=seed % 2 == 1,
                       noise=random.Random(seed), noise_span=RESTART_NOISE)
        used += attempt.nodes
        if attempt.steps is not None:
            return SearchOutcome(attempt.steps, used, False, time.perf_counter() - started)
        if not attempt.trimmed:
            break  # the beam kept every position it met: no reordering can change that
        seed += 1
    return SearchOutcome(None, used, False, time.perf_counter() - started)


@dataclass(frozen=True, slots=True)
class Attempt:
    """One beam of the last resort (:data:`RESORT`): its width and its move generator.

    ``moves`` is ``"pruned"`` (:func:`candidate_steps`), ``"split"`` (the same, plus parts
    of runs into an empty column) or ``"complete"`` (:func:`all_steps`: every legal move,
    so also a run onto a card of another suit, which the pruning never tries). With
    ``seed``, scores get noise as in :func:`restarts` (seeded: still deterministic).
    """

    width: int
    moves: Literal["pruned", "split", "complete"] = "complete"
    seed: int | None = None
    depth: int = MAX_DEPTH
    """Longest line looked for: beams over every legal move tend to wander to the cap."""
    late: bool = False
    """Wait for the turn of the first plain beam of :data:`RESORT_PLAIN_FROM` (or for the
    pruned beams to run dry): deals whose pruned beams keep running dry cheaply reach it
    early, and those are the ones where every legal move can make a difference."""


RESORT_AFTER = 400_000
"""Nodes after which the doubling may change course for the last resort (:data:`RESORT`).

At least the largest budget the game gives a first-win search (``DUEL_SOLVE_NODES[4]``,
``app/services/deals.py``; every other budget is smaller): a search with a budget up to
this is the doubling node for node, so solvable deal numbers (mapping v1), difficulty
ratings, hints, rescue and finish are unchanged."""

RESORT: tuple[Attempt, ...] = (
    Attempt(500, "pruned", seed=0),
    Attempt(150, "complete", depth=250, late=True),
)
"""The last resort, in order: a noisy beam of width 500 (the first of :func:`restarts`),
then (in a later turn) a beam over every legal move of width 150, lines up to 250
actions. On the 4-suit
deals the doubling loses within 60 s, the first won 914 and 223, the second 126 (its
win is 238 actions long; the cap saves what the beam spends wandering where it wins
nothing: a quarter on 665).
See docs/solver.md."""

RESORT_SPLIT_FROM = 640
"""Past the switch, split variants this wide are dropped, and the first one's turn goes
to :data:`RESORT`: no 4-suit deal of the 1,000 was won by one past 400,000 nodes."""
RESORT_PLAIN_FROM = 2_560
"""Past the switch, the first plain beam this wide waits for :data:`RESORT` (if it has
not run yet): none of the 1,000 was won by one within 60 s."""


def _run_attempt(board: Board, limits: Limits, attempt: Attempt, *, over_empty: bool
                 ) -> SearchOutcome:
    noise = None if attempt.seed is None else random.Random(attempt.seed)
    return beam(board, limits, over_empty=over_empty, width=attempt.width,
                split=attempt.moves == "split", complete=attempt.moves == "complete",
                max_depth=attempt.depth, noise=noise,
                noise_span=0 if noise is None else RESTART_NOISE)


def doubling(
    board: Board, limits: Limits, *, over_empty: bool, resort_after: int | None = None,
    resort: tuple[Attempt, ...] = RESORT,
) -> SearchOutcome:
    """Depth-first first (cheap when it works), then beams of doubling width.

    A narrow beam either wins quickly or runs dry quickly, so doubling the width wastes
    little; each attempt gets what is left of the node budget.

    With ``resort_after``, the search *switches* at the first boundary between two
    attempts where it has spent that many nodes: from there on it drops split variants
    of width :data:`RESORT_SPLIT_FROM` and more, and runs each ``resort`` beam once, in
    the turn of the first such variant or of the first plain beam of width
    :data:`RESORT_PLAIN_FROM`, whichever comes first (a ``late`` one only in the
    latter's). Until the switch it is the
    doubling alone, node for node; after it too, until that turn. When a beam keeps every
    position it meets (the pruned moves are exhausted: no wider beam can see more), the
    ``resort`` beams run then, but only if the budget is larger than ``resort_after``.
    """
    started = time.perf_counter()
    used = 0
    switched = False
    waiting = list(resort)

    def left() -> Limits:
        seconds = None
        if limits.seconds is not None:
            seconds = max(0.0, limits.seconds - (time.perf_counter() - started))
        return limits.after(used, seconds)

    def out_of_budget() -> bool:
        budget = left()
        return budget.nodes <= 0 or (budget.seconds is not None and budget.seconds <= 0)

    def check_switch() -> None:
        nonlocal switched
        if resort_after is not None and used >= resort_after:
            switched = True

    def last_resort(wide: bool) -> tuple[Step, ...] | None:
        nonlocal used
        for attempt in [attempt for attempt in waiting if wide or not attempt.late]:
            if out_of_budget():
                break
            waiting.remove(attempt)
            outcome = _run_attempt(board, left(), attempt, over_empty=over_empty)
            used += outcome.nodes
            if outcome.steps is not None:
                return outcome.steps
        return None

    def done(steps: tuple[Step, ...]) -> SearchOutcome:
        return SearchOutcome(steps, used, False, time.perf_counter() - started)

    first = depth_first(
        board, Limits(min(DFS_SHARE, limits.nodes), limits.seconds, limits.progress),
        over_empty=over_empty,
    )
    used += first.nodes
    if first.steps is not None or first.exhausted:
        return SearchOutcome(first.steps, used, first.exhausted, time.perf_counter() - started)
    width = FIRST_WIDTH
    while not out_of_budget():
        check_switch()
        if switched and waiting and width >= RESORT_PLAIN_FROM:
            steps = last_resort(wide=True)
            if steps is not None:
                return done(steps)
            if out_of_budget():
                break
        attempt = beam(board, left(), over_empty=over_empty, width=width)
        used += attempt.nodes
        if attempt.steps is not None:
            return done(attempt.steps)
        if width >= VARIANT_WIDTH and not out_of_budget():
            check_switch()
            if not switched or width < RESORT_SPLIT_FROM:
                variant = beam(board, left(), over_empty=over_empty, width=width, split=True)
                used += variant.nodes
                if variant.steps is not None:
                    return done(variant.steps)
            elif waiting:
                steps = last_resort(wide=False)
                if steps is not None:
                    return done(steps)
        if not attempt.trimmed:
            # the pruned moves are exhausted; every legal move may still win (a budget
            # within resort_after never gets here: it is the doubling's answer as it was)
            if (waiting and resort_after is not None and limits.nodes > resort_after
                    and not out_of_budget()):
                steps = last_resort(wide=True)
                if steps is not None:
                    return done(steps)
            return SearchOutcome(None, used, False, time.perf_counter() - started, trimmed=False)
        width *= 2
    return SearchOutcome(None, used, False, time.perf_counter() - started)
