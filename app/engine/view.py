"""The one projection of a game that may leave the server while the game is in progress.

Face-down cards and the stock order never appear: only their counts. The view is the
wire's own type (``app.wire.game.GameView``, a leaf of msgspec structs that imports
nothing of app/), encoded as it is: no dict between the engine and the socket.
"""

from app.engine.cards import FACE, FACE_NAMES, SUITS
from app.engine.state import Column, GameState
from app.wire.game import ColumnView, GameView


class ViewMemo:
    """The column entries of the last view built, for the next view of the same game.

    An action changes one or two columns (a deal, ten): the next view reuses the entries
    of the columns that are the very same (immutable) ``Column`` objects. Views built this
    way share those entries (frozen structs; their ``up`` lists are never changed: whoever
    holds a view treats it as read-only, as the rooms layer does with every frame).
    """

    __slots__ = ("columns", "entries")

    def __init__(self) -> None:
        self.columns: tuple[Column, ...] = ()
        self.entries: list[ColumnView] = []


def _column_entry(column: Column) -> ColumnView:
    table = FACE_NAMES  # every answer names its cards: a lookup, not a string built
    return ColumnView(len(column.down), [table[card & FACE] for card in column.up])


def player_view(state: GameState, memo: ViewMemo | None = None) -> GameView:
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
    return GameView(
        entries,
        len(state.stock),
        state.deals_left,
        [SUITS[suit] for suit in state.removed],  # type: ignore[misc]  # s, h, d or c
        state.status,
        state.actions,
        bool(state.history),
    )
