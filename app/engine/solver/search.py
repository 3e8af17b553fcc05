"""The searches over :mod:`board` positions: depth-first and beam (their schedule, the
portfolio of both, is :mod:`app.engine.solver.schedule`).

This is the hot loop; it favours plain functions, tuples and memo tables over
objects. See ``docs/solver.md`` for the algorithm and the measurements behind it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import TypeAlias

from app.engine.solver.board import DEAL, EMPTY, Board, Columns, Step
from app.engine.solver.moves import all_steps, candidate_steps, deal_row, play
from app.engine.solver.score import score

Progress = Callable[[int, int], None]
"""Told (nodes expanded so far, depth of the current line) now and then during a search."""

REPORT_EVERY = 1024
"""Nodes between two progress reports of the depth-first search (beams report per level)."""


@dataclass(frozen=True, slots=True)
class Limits:
    nodes: int = 200_000
    seconds: float | None = None
    progress: Progress | None = None

    def after(self, used: int, seconds: float | None) -> Limits:
        """What is left once ``used`` nodes are spent; progress counts on from there."""
        report = self.progress
        shifted = None if report is None else (lambda n, d: report(used + n, d))
        return Limits(self.nodes - used, seconds, shifted)


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What a search found: ``steps`` is None when no win was found."""

    steps: tuple[Step, ...] | None
    nodes: int
    exhausted: bool
    """True only when a complete search ran out of positions: proof that no win exists."""

    elapsed: float
    trimmed: bool = True
    """False when a beam ran dry without ever dropping a position: a wider one is no use."""


_Child = tuple[Step, Columns, int, int]
_FIRST = itemgetter(0)
_FIRST_TWO = itemgetter(0, 1)

MAX_DEPTH = 400
"""Longest line the depth-first search follows; deeper positions count as dead ends."""


def depth_first(
    board: Board, limits: Limits, *, over_empty: bool, complete: bool = False
) -> SearchOutcome:
    """Depth-first search, best-scored child first, deal last, with a transposition table.

    With ``complete`` every legal move is tried and no depth cap applies, so an
    exhausted search proves that no win exists (under automatic flips).
    """
    generate = all_steps if complete else candidate_steps
    max_depth = 1 << 30 if complete else MAX_DEPTH
    started = time.perf_counter()
    deadline = None if limits.seconds is None else started + limits.seconds
    rows = board.rows
    total_rows = len(rows)
    seen: set[tuple[Columns, int]] = set()
    nodes = 0
    report = limits.progress

    def children(columns: Columns, dealt: int, removed: int) -> list[_Child]:
        scored = []
        for step in generate(columns):
            child, runs = play(columns, step)
            if (child, dealt) in seen:
                continue
            scored.append((score(child, removed + runs), step, child, runs))
        scored.sort(key=_FIRST, reverse=True)
        out = [(step, child, dealt, removed + runs) for _, step, child, runs in scored]
        if dealt < total_rows and (over_empty or EMPTY not in columns):
            child, runs = deal_row(columns, rows[dealt])
            if (child, dealt + 1) not in seen:
                out.append((DEAL, child, dealt + 1, removed + runs))
        out.reverse()  # popped from the end
        return out

    root = (board.columns, board.dealt)
    seen.add(root)
    if board.removed >= 8:
        return SearchOutcome((), 0, False, 0.0)
    stack: list[list[_Child]] = [
        children(board.columns, board.dealt, board.removed)
    ]
    path: list[Step] = []
    capped = False
    while stack:
        frame = stack[-1]
        if not frame:
            stack.pop()
            if path:
                path.pop()
            continue
        step, columns, dealt, removed = frame.pop()
        key = (columns, dealt)
        if key in seen:
            continue
        seen.add(key)
        path.append(step)
        if removed >= 8:
            return SearchOutcome(tuple(path), nodes, False, time.perf_counter() - started)
        nodes += 1
        if report is not None and nodes % REPORT_EVERY == 0:
            report(nodes, len(path))
        if nodes >= limits.nodes or (
            deadline is not None and nodes & 255 == 0 and time.perf_counter() > deadline
        ):
            return SearchOutcome(None, nodes, False, time.perf_counter() - started)
        if len(path) >= max_depth:
            capped = True
            stack.append([])
            continue
        stack.append(children(columns, dealt, removed))
    return SearchOutcome(None, nodes, complete and not capped, time.perf_counter() - started)




_Node: TypeAlias = "tuple[Columns, int, int, _Node | None, Step]"
"""A beam position: (columns, rows dealt, runs removed, parent, step that led here)."""


def beam(
    board: Board, limits: Limits, *, over_empty: bool, width: int = 150, split: bool = False,
    max_depth: int = MAX_DEPTH, noise: random.Random | None = None, noise_span: int = 0,
    complete: bool = False,
) -> SearchOutcome:
    """Beam search: each level keeps the ``width`` best new positions per stock count.

    ``split`` lets parts of runs go to an empty column (see :func:`candidate_steps`).
    Each level is one action, so a win found at level ``d`` is ``d`` actions long;
    ``max_depth`` caps it (a win longer than that is not looked for).

    With ``noise``, each new position's score gets a draw from ``range(noise_span)``
    added: near-equal positions are kept in another order, so beams that differ only in
    the generator's seed keep different positions (the restarts of :func:`portfolio`).
    """
    started = time.perf_counter()
    deadline = None if limits.seconds is None else started + limits.seconds
    rows = board.rows
    total_rows = len(rows)
    seen: set[tuple[Columns, int]] = {(board.columns, board.dealt)}
    level: list[_Node] = [(board.columns, board.dealt, board.removed, None, DEAL)]
    if board.removed >= 8:
        return SearchOutcome((), 0, False, 0.0)
    nodes = 0
    depth = 0
    trimmed = False
    while level and depth < max_depth:
        depth += 1
        groups: dict[int, list[tuple[int, int, _Node]]] = {}
        order = 0
        for node in level:
            columns, dealt, removed = node[0], node[1], node[2]
            nodes += 1
            for step in (all_steps(columns) if complete else candidate_steps(columns, split)):
                child, runs = play(columns, step)
                key = (child, dealt)
                if key in seen:
                    continue
                seen.add(key)
                new = (child, dealt, removed + runs, node, step)
                if removed + runs >= 8:
                    return SearchOutcome(_path(new), nodes, False, time.perf_counter() - started)
                order += 1
                value = score(child, removed + runs)
                if noise is not None:
                    value += noise.randrange(noise_span)
                groups.setdefault(dealt, []).append((value, -order, new))
            if dealt < total_rows and (over_empty or EMPTY not in columns):
                child, runs = deal_row(columns, rows[dealt])
                key = (child, dealt + 1)
                if key not in seen:
                    seen.add(key)
                    new = (child, dealt + 1, removed + runs, node, DEAL)
                    if removed + runs >= 8:
                        return SearchOutcome(_path(new), nodes, False,
                                             time.perf_counter() - started)
                    order += 1
                    value = score(child, removed + runs)
                    if noise is not None:
                        value += noise.randrange(noise_span)
                    groups.setdefault(dealt + 1, []).append((value, -order, new))
        if limits.progress is not None:
            limits.progress(nodes, depth)
        if nodes >= limits.nodes or (deadline is not None and time.perf_counter() > deadline):
            return SearchOutcome(None, nodes, False, time.perf_counter() - started)
        level = []
        for dealt in sorted(groups):
            group = groups[dealt]
            group.sort(reverse=True, key=_FIRST_TWO)
            if len(group) > width:
                trimmed = True
            level.extend(item[2] for item in group[:width])
    if level:
        trimmed = True  # stopped by the depth cap
    return SearchOutcome(None, nodes, False, time.perf_counter() - started, trimmed)


def _path(node: _Node) -> tuple[Step, ...]:
    steps: list[Step] = []
    current = node
    while current[3] is not None:
        steps.append(current[4])
        current = current[3]
    return tuple(reversed(steps))
