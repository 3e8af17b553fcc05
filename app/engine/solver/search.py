"""Depth-first search over :mod:`board` positions, ordered by a disorder score.

This module is the hot loop; it favours plain functions, tuples and memo tables over
objects. See ``docs/solver.md`` for the algorithm and the measurements behind it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TypeAlias

from app.engine.solver.board import DEAL, DOWN, EMPTY, Board, Columns, Step, run_length, settle

Facts = tuple[int, int, int, int]
_FACTS: dict[bytes, Facts] = {}


def column_facts(column: bytes) -> Facts:
    """What the score needs from one column: (disorder, ready, top bit, wanted bit).

    Disorder counts chunks (maximal same-suit sequences; every face-down card is a chunk
    of its own), less one when the column needs no emptying: it is empty or has a king
    at the bottom. Ready is the movable cards on top (an empty column counts one). The
    top bit is ``1 << rank`` of the face-up top card; the wanted bit ``1 << rank + 1``
    of the bottom card, which could go onto a top card of that rank.
    """
    try:
        return _FACTS[column]
    except KeyError:
        pass
    if not column:
        facts = (-1, 1, 0, 0)
    else:
        chunks = 0
        below = DOWN
        for card in column:
            if card >= DOWN or below >= DOWN or card + 1 != below:
                chunks += 1
            below = card
        bottom = column[0] & 15
        top = column[-1]
        facts = (
            chunks - 1 if bottom == 13 else chunks,
            run_length(column),
            1 << (top & 15) if top < DOWN else 0,
            0 if bottom == 13 else 1 << (bottom + 1),
        )
    if len(_FACTS) > 1_000_000:
        _FACTS.clear()
    _FACTS[column] = facts
    return facts


def score(columns: Columns, removed: int) -> int:
    """Higher is better: minus the disorder (×1000), plus the cards ready to play.

    The disorder of a position is the sum of its columns' (see :func:`column_facts`),
    less one for each column whose bottom card could go onto another column's top
    card, never below zero. Removed runs count 13 ready cards each.
    """
    chaos = 0
    ready = 13 * removed
    tops = 0
    wanted = []
    for column in columns:
        facts = _FACTS.get(column) or column_facts(column)
        chaos += facts[0]
        ready += facts[1]
        tops |= facts[2]
        wanted.append(facts[3])
    for bit in wanted:
        if bit & tops:
            chaos -= 1
    if chaos < 0:
        chaos = 0
    return ready - 1000 * chaos


# Column facts for move generation: (top face or -1, run length, run base kind).
# Base kinds: 0 the run is the whole column, 1 it sits on a face-down card,
# 2 it sits on a face-up card one rank higher (another suit), 3 on anything else.
_INFO: dict[bytes, tuple[int, int, int]] = {}


def column_info(column: bytes) -> tuple[int, int, int]:
    try:
        return _INFO[column]
    except KeyError:
        pass
    run = run_length(column)
    if run == 0:
        info = (-1, 0, 0)
    else:
        n = len(column)
        if run == n:
            kind = 0
        else:
            base = column[n - run - 1]
            if base >= DOWN:
                kind = 1
            elif (base & 15) == (column[n - run] & 15) + 1:
                kind = 2
            else:
                kind = 3
        info = (column[-1], run, kind)
    if len(_INFO) > 1_000_000:
        _INFO.clear()
    _INFO[column] = info
    return info


def all_steps(columns: Columns) -> list[Step]:
    """Every legal move (but moves of a whole column into an empty one, which change nothing).

    Used where completeness matters more than speed: proving there is no way out.
    """
    steps: list[Step] = []
    for src, column in enumerate(columns):
        run = run_length(column)
        for count in range(1, run + 1):
            rank = column[-count] & 15
            for dst, target in enumerate(columns):
                if dst == src:
                    continue
                if target:
                    if target[-1] < DOWN and target[-1] & 15 == rank + 1:
                        steps.append((src, dst, count))
                elif count < len(column):
                    steps.append((src, dst, count))
    return steps


def candidate_steps(columns: Columns) -> list[Step]:
    """Moves worth trying: legal, and not a pure swap of equivalent places."""
    infos = [column_info(column) for column in columns]
    empty = -1
    targets: dict[int, list[tuple[int, int, int]]] = {}
    for index, (top, run, _kind) in enumerate(infos):
        if top < 0:
            if empty < 0 and not columns[index]:
                empty = index
            continue
        targets.setdefault(top & 15, []).append((index, top, run))
    steps: list[Step] = []
    for src, (_top, run, kind) in enumerate(infos):
        if run == 0:
            continue
        column = columns[src]
        for count in range(1, run + 1):
            card = column[-count]
            whole = count == run
            places = targets.get((card & 15) + 1)
            if places:
                for dst, dst_top, dst_run in places:
                    if dst == src:
                        continue
                    in_suit = dst_top == card + 1
                    if whole:
                        if kind == 2 and not in_suit:
                            continue
                    elif not in_suit or dst_run + count <= run:
                        continue
                    steps.append((src, dst, count))
            if whole and empty >= 0 and kind != 0:
                steps.append((src, empty, count))
    return steps


def play(columns: Columns, step: Step) -> tuple[Columns, int]:
    """Columns after a move (settled: runs removed, tops turned) and runs removed by it."""
    src, dst, count = step
    source = columns[src]
    moved = source[-count:]
    new_source, _ = settle(source[:-count])
    new_target, runs = settle(columns[dst] + moved)
    out = list(columns)
    out[src] = new_source
    out[dst] = new_target
    return tuple(out), runs


def deal_row(columns: Columns, row: bytes) -> tuple[Columns, int]:
    out = []
    runs = 0
    for column, card in zip(columns, row, strict=True):
        settled, removed = settle(column + bytes((card,)))
        out.append(settled)
        runs += removed
    return tuple(out), runs


def can_deal(board_rows: int, dealt: int, columns: Columns, over_empty: bool) -> bool:
    return dealt < board_rows and (over_empty or EMPTY not in columns)


@dataclass(frozen=True, slots=True)
class Limits:
    nodes: int = 200_000
    seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a search found: ``steps`` is None when no win was found."""

    steps: tuple[Step, ...] | None
    nodes: int
    exhausted: bool
    """True only when a complete search ran out of positions: proof that no win exists."""

    elapsed: float
    trimmed: bool = True
    """False when a beam ran dry without ever dropping a position: a wider one is no use."""


_Child = tuple[Step, Columns, int, int]

MAX_DEPTH = 400
"""Longest line the depth-first search follows; deeper positions count as dead ends."""


def depth_first(
    board: Board, limits: Limits, *, over_empty: bool, complete: bool = False
) -> Outcome:
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

    def children(columns: Columns, dealt: int, removed: int) -> list[_Child]:
        scored = []
        for step in generate(columns):
            child, runs = play(columns, step)
            if (child, dealt) in seen:
                continue
            scored.append((score(child, removed + runs), step, child, runs))
        scored.sort(key=_first, reverse=True)
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
        return Outcome((), 0, False, 0.0)
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
            return Outcome(tuple(path), nodes, False, time.perf_counter() - started)
        nodes += 1
        if nodes >= limits.nodes or (
            deadline is not None and nodes & 255 == 0 and time.perf_counter() > deadline
        ):
            return Outcome(None, nodes, False, time.perf_counter() - started)
        if len(path) >= max_depth:
            capped = True
            stack.append([])
            continue
        stack.append(children(columns, dealt, removed))
    return Outcome(None, nodes, complete and not capped, time.perf_counter() - started)


def _first(item: tuple[int, Step, Columns, int]) -> int:
    return item[0]




_Node: TypeAlias = "tuple[Columns, int, int, _Node | None, Step]"
"""A beam position: (columns, rows dealt, runs removed, parent, step that led here)."""


def beam(board: Board, limits: Limits, *, over_empty: bool, width: int = 150) -> Outcome:
    """Beam search: each level keeps the ``width`` best new positions per stock count."""
    started = time.perf_counter()
    deadline = None if limits.seconds is None else started + limits.seconds
    rows = board.rows
    total_rows = len(rows)
    seen: set[tuple[Columns, int]] = {(board.columns, board.dealt)}
    level: list[_Node] = [(board.columns, board.dealt, board.removed, None, DEAL)]
    if board.removed >= 8:
        return Outcome((), 0, False, 0.0)
    nodes = 0
    depth = 0
    trimmed = False
    while level and depth < MAX_DEPTH:
        depth += 1
        groups: dict[int, list[tuple[int, int, _Node]]] = {}
        order = 0
        for node in level:
            columns, dealt, removed = node[0], node[1], node[2]
            nodes += 1
            for step in candidate_steps(columns):
                child, runs = play(columns, step)
                key = (child, dealt)
                if key in seen:
                    continue
                seen.add(key)
                new = (child, dealt, removed + runs, node, step)
                if removed + runs >= 8:
                    return Outcome(_path(new), nodes, False, time.perf_counter() - started)
                order += 1
                groups.setdefault(dealt, []).append((score(child, removed + runs), -order, new))
            if dealt < total_rows and (over_empty or EMPTY not in columns):
                child, runs = deal_row(columns, rows[dealt])
                key = (child, dealt + 1)
                if key not in seen:
                    seen.add(key)
                    new = (child, dealt + 1, removed + runs, node, DEAL)
                    if removed + runs >= 8:
                        return Outcome(_path(new), nodes, False, time.perf_counter() - started)
                    order += 1
                    groups.setdefault(dealt + 1, []).append(
                        (score(child, removed + runs), -order, new)
                    )
        if nodes >= limits.nodes or (deadline is not None and time.perf_counter() > deadline):
            return Outcome(None, nodes, False, time.perf_counter() - started)
        level = []
        for dealt in sorted(groups):
            group = groups[dealt]
            group.sort(reverse=True, key=_rank)
            if len(group) > width:
                trimmed = True
            level.extend(item[2] for item in group[:width])
    if level:
        trimmed = True  # stopped by the depth cap
    return Outcome(None, nodes, False, time.perf_counter() - started, trimmed)


def _rank(item: tuple[int, int, object]) -> tuple[int, int]:
    return item[0], item[1]


def _path(node: _Node) -> tuple[Step, ...]:
    steps: list[Step] = []
    current = node
    while current[3] is not None:
        steps.append(current[4])
        current = current[3]
    return tuple(reversed(steps))


DFS_SHARE = 5_000
"""Nodes the opening depth-first attempt may spend (most 1- and 2-suit deals need far fewer)."""

FIRST_WIDTH = 5


def portfolio(board: Board, limits: Limits, *, over_empty: bool) -> Outcome:
    """Depth-first first (cheap when it works), then beams of doubling width.

    A narrow beam either wins quickly or runs dry quickly, so doubling the width wastes
    little; each attempt gets what is left of the node budget.
    """
    started = time.perf_counter()
    used = 0

    def left() -> Limits:
        seconds = None
        if limits.seconds is not None:
            seconds = max(0.0, limits.seconds - (time.perf_counter() - started))
        return Limits(nodes=limits.nodes - used, seconds=seconds)

    def out_of_budget() -> bool:
        budget = left()
        return budget.nodes <= 0 or (budget.seconds is not None and budget.seconds <= 0)

    first = depth_first(
        board, Limits(min(DFS_SHARE, limits.nodes), limits.seconds), over_empty=over_empty
    )
    used += first.nodes
    if first.steps is not None or first.exhausted:
        return Outcome(first.steps, used, first.exhausted, time.perf_counter() - started)
    width = FIRST_WIDTH
    while not out_of_budget():
        attempt = beam(board, left(), over_empty=over_empty, width=width)
        used += attempt.nodes
        if attempt.steps is not None:
            return Outcome(attempt.steps, used, False, time.perf_counter() - started)
        if not attempt.trimmed:
            break
        width *= 2
    return Outcome(None, used, False, time.perf_counter() - started)


def shorten(board: Board, steps: tuple[Step, ...], *, over_empty: bool) -> tuple[Step, ...]:
    """The same win with detours cut out: from each position, jump to the latest position
    of the line that one legal action reaches."""
    positions: list[tuple[Columns, int]] = [(board.columns, board.dealt)]
    columns, dealt = board.columns, board.dealt
    for step in steps:
        if step[0] < 0:
            columns, _ = deal_row(columns, board.rows[dealt])
            dealt += 1
        else:
            columns, _ = play(columns, step)
        positions.append((columns, dealt))
    index = {key: i for i, key in enumerate(positions)}
    out: list[Step] = []
    i = 0
    while i < len(steps):
        columns, dealt = positions[i]
        best, best_step = i + 1, steps[i]
        for step in all_steps(columns):
            j = index.get((play(columns, step)[0], dealt), -1)
            if j > best:
                best, best_step = j, step
        if dealt < len(board.rows) and (over_empty or EMPTY not in columns):
            j = index.get((deal_row(columns, board.rows[dealt])[0], dealt + 1), -1)
            if j > best:
                best, best_step = j, DEAL
        out.append(best_step)
        i = best
    return tuple(out)
