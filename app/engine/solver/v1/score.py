"""Frozen copy (mapping v1): do not edit; see app/engine/solver/v1/__init__.py.

The disorder score that orders the search: higher is better.

Per-column terms are memoised on the column's bytes; :func:`score` combines them.
"""

from __future__ import annotations

from app.engine.solver.v1.board import _MEMO_LIMIT, DOWN, Columns, run_length

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
    if len(_FACTS) > _MEMO_LIMIT:
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
    get = _FACTS.get
    every = [get(column) or column_facts(column) for column in columns]
    for facts in every:
        chaos += facts[0]
        ready += facts[1]
        tops |= facts[2]
    for facts in every:
        if facts[3] & tops:
            chaos -= 1
    if chaos < 0:
        chaos = 0
    return ready - 1000 * chaos
