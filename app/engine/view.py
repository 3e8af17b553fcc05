"""The one projection of a game that may leave the server while the game is in progress.

Face-down cards and the stock order never appear: only their counts.
"""

from typing import Any

from app.engine.cards import FACE, FACE_NAMES, SUITS
from app.engine.state import Column, GameState


class ViewMemo:
    """The column entries of the last view built, for the next view of the same game.

    An action changes one or two columns (a deal, ten): the next view reuses the entries
    of the columns that are the very same (immutable) ``Column`` objects. Views built this
    way share those dicts, so whoever holds a view must treat it as read-only, as the
    rooms layer does with every frame.
    """

    __slots__ = ("columns", "entries")

    def __init__(self) -> None:
        self.columns: tuple[Column, ...] = ()
        self.entries: list[dict[str, Any]] = []


def _column_entry(column: Column) -> dict[str, Any]:
    table = FACE_NAMES  # every answer names its cards: a lookup, not a string built
    return {"down": len(column.down), "up": [table[card & FACE] for card in column.up]}


def player_view(state: GameState, memo: ViewMemo | None = None) -> dict[str, Any]:
    columns = state.columns
    if memo is None:
        entries = [_column_entry(column) for column in columns]
    else:
        known, last = memo.columns, memo.entries
        if len(known) == len(columns):
            entries = [
                last[index] if column is known[index] else _column_entry(column)
                for index, column in enumerate(columns)
            ]
        else:
            entries = [_column_entry(column) for column in columns]
        memo.columns, memo.entries = columns, entries
    return {
        "columns": entries,
        "stock": len(state.stock),
        "deals_left": state.deals_left,
        "removed": [SUITS[suit] for suit in state.removed],
        "status": state.status,
        "actions": state.actions,
        "can_undo": bool(state.history),
    }
