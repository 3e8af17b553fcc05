"""Frozen copy (mapping v1): do not edit; see app/engine/solver/v1/__init__.py.

The solver's compact position: ten ``bytes`` columns, built for speed, not for play.

The engine's :class:`~app.engine.state.GameState` is made for correctness; a search
visits millions of positions, so here a column is one ``bytes`` object, bottom to top,
holding card *faces* (``suit << 4 | rank``, the engine's ``card & FACE``) with bit 6 set
on face-down cards. A face-down card can never extend a run because of that bit, the
top card is face up exactly when ``column[-1] < 64``, and a position (the ten columns
plus how many rows were dealt) is hashable as it is: ``bytes`` caches its hash, which
makes the transposition table cheap.

Flips are automatic here (a face-down card left on top turns over at once). Under the
``duel`` rules that is one of the choices a player has, so every line found here is
also playable there (the converter adds the explicit flips).

Everything per column (run length, score, settling) is memoised on the column's bytes:
the same columns recur all the time in a search.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.cards import FACE, RUN_LENGTH
from app.engine.state import COLUMNS, GameState

DOWN = 64
"""Bit set on a face-down card."""

Columns = tuple[bytes, ...]
Step = tuple[int, int, int]
"""A move ``(src, dst, count)``; ``(-1, -1, 0)`` is a deal."""

DEAL: Step = (-1, -1, 0)

EMPTY = b""

MEMO_LIMIT = 200_000
"""Entries a per-column memo table holds before it starts afresh (bounds memory)."""
_MEMO_LIMIT = MEMO_LIMIT


@dataclass(frozen=True, slots=True)
class Board:
    """A position for the search: columns, the stock as rows, and the rows already dealt."""

    columns: Columns
    rows: tuple[bytes, ...]
    dealt: int
    removed: int

    @property
    def stock_left(self) -> int:
        return len(self.rows) - self.dealt

    @property
    def won(self) -> bool:
        return self.removed >= 8


def board_from_state(state: GameState) -> Board:
    """The compact form of an engine position (full knowledge: face-down cards included)."""
    columns = tuple(
        settle(
            bytes([(c & FACE) | DOWN for c in column.down] + [c & FACE for c in column.up])
        )[0]
        for column in state.columns
    )
    stock = [card & FACE for card in state.stock]
    rows = tuple(bytes(stock[i : i + COLUMNS]) for i in range(0, len(stock), COLUMNS))
    return Board(columns, rows, 0, len(state.removed))


# --- per-column facts, memoised on the bytes ------------------------------------------

_RUN: dict[bytes, int] = {}


def run_length(column: bytes) -> int:
    """Cards on top of ``column`` forming a movable face-up run of one suit (0 if none)."""
    try:
        return _RUN[column]
    except KeyError:
        pass
    n = len(column)
    if n == 0 or column[-1] >= DOWN:
        length = 0
    else:
        length = 1
        while length < n and column[-length] + 1 == column[-length - 1]:
            length += 1
    if len(_RUN) > _MEMO_LIMIT:
        _RUN.clear()
    _RUN[column] = length
    return length


_SETTLED: dict[bytes, tuple[bytes, int]] = {}


def settle(column: bytes) -> tuple[bytes, int]:
    """``column`` after a completed K→A run leaves and a face-down top turns: (column, runs)."""
    try:
        return _SETTLED[column]
    except KeyError:
        pass
    out = column
    runs = 0
    if len(out) >= RUN_LENGTH and out[-1] & 15 == 1 and run_length(out) >= RUN_LENGTH:
        out = out[:-RUN_LENGTH]
        runs = 1
    if out and out[-1] >= DOWN:
        out = out[:-1] + bytes((out[-1] - DOWN,))
    if len(_SETTLED) > _MEMO_LIMIT:
        _SETTLED.clear()
    _SETTLED[column] = (out, runs)
    return out, runs


def face_down_count(column: bytes) -> int:
    count = 0
    for card in column:
        if card < DOWN:
            break
        count += 1
    return count
