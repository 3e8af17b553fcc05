"""Frozen (mapping v1): the moves the v1 search tries, and what they do."""

from __future__ import annotations

from app.engine.solver.v1.board import _MEMO_LIMIT, DOWN, Columns, Step, run_length, settle

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
    if len(_INFO) > _MEMO_LIMIT:
        _INFO.clear()
    _INFO[column] = info
    return info


def candidate_steps(columns: Columns, split_to_empty: bool = False) -> list[Step]:
    """Moves worth trying: legal, and not a pure swap of equivalent places.

    - a whole movable run goes onto any card one rank higher, except that a run already
      lying on a card one rank higher (of another suit) only moves to join its own suit;
    - part of a run moves only to join its own suit on a column whose run then grows
      longer than the one it leaves (never a plain swap);
    - a whole run that uncovers or frees a card may go to the first empty column;
    - with ``split_to_empty`` (a variant the wide beams also try), part of a run may go
      to the first empty column too.
    """
    infos = []
    empty = -1
    by_rank: dict[int, list[tuple[int, int]]] = {}
    by_face: dict[int, list[tuple[int, int]]] = {}
    for index, column in enumerate(columns):
        info = _INFO.get(column) or column_info(column)
        infos.append(info)
        top = info[0]
        if top < 0:
            if empty < 0 and not column:
                empty = index
            continue
        place = (index, info[1])
        same_rank = by_rank.get(top & 15)
        if same_rank is None:
            by_rank[top & 15] = [place]
        else:
            same_rank.append(place)
        same_face = by_face.get(top)
        if same_face is None:
            by_face[top] = [place]
        else:
            same_face.append(place)
    steps: list[Step] = []
    for src in range(len(columns)):
        _top, run, kind = infos[src]
        if run == 0:
            continue
        column = columns[src]
        for count in range(1, run):
            joins = by_face.get(column[-count] + 1)
            if joins:
                for dst, dst_run in joins:
                    if dst != src and dst_run + count > run:
                        steps.append((src, dst, count))
            if split_to_empty and empty >= 0:
                steps.append((src, empty, count))
        card = column[-run]
        if kind == 2:
            joins = by_face.get(card + 1)
            if joins:
                for dst, _ in joins:
                    steps.append((src, dst, run))
        else:
            places = by_rank.get((card & 15) + 1)
            if places:
                for dst, _ in places:
                    if dst != src:
                        steps.append((src, dst, run))
        if empty >= 0 and kind != 0:
            steps.append((src, empty, run))
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
