"""Immutable positions. A game is a fold of actions over a starting position."""

from __future__ import annotations

from typing import Any, Literal

from msgspec.structs import force_setattr

from app.engine.cards import FACE, Card
from app.engine.rules import Rules
from app.engine.values import Value

RUNS_TO_WIN = 8
COLUMNS = 10


class _Cards(Value):  # a column's positional fields: Column(down, up)
    down: tuple[Card, ...]
    up: tuple[Card, ...]


class Column(_Cards, kw_only=True):
    """A tableau column: face-down cards, then face-up cards, bottom to top.

    ``top_rank`` (rank of the top face-up card, 0 for none) and ``movable`` (how many
    cards on top form a same-suit run that may move together) follow from ``up``; move
    generation reads them for every column of every position, so they are worked out
    once, when a column is made: the engine passes them, as it knows them from the
    move that made the column, and anyone else leaves them out.
    """

    top_rank: int = -1
    movable: int = -1

    def __post_init__(self) -> None:
        if self.movable < 0 or self.top_rank < 0:
            up = self.up
            force_setattr(self, "top_rank", up[-1] & 15 if up else 0)
            force_setattr(self, "movable", run_length(up))

    @property
    def empty(self) -> bool:
        return not self.down and not self.up

    def __len__(self) -> int:
        return len(self.down) + len(self.up)


def run_length(up: tuple[Card, ...]) -> int:
    """How many cards on top of ``up`` form a same-suit descending run."""
    if not up:
        return 0
    length = len(up)
    count = 1
    while count < length and (up[-count] & FACE) + 1 == (up[-count - 1] & FACE):
        count += 1
    return count


EMPTY_COLUMN = Column((), ())


class GameState(Value):
    """One position plus what undo needs.

    ``previous`` is the position before the last undoable action: a persistent stack, so
    undo is one pointer step and shares everything. It is kept as ``history``, a tuple
    of that one position or empty (see :mod:`app.engine.values` for why a tuple).
    ``barrier`` is true when the undo stack was cut by an action the rules make final.

    Equality is by value, history included, but walks the history in a loop: a
    recursive comparison would overflow the stack on long games. The hash leaves the
    history out (equal states still hash equal).
    """

    rules: Rules
    columns: tuple[Column, ...]
    stock: tuple[Card, ...]
    removed: tuple[int, ...]
    actions: int = 0
    barrier: bool = False
    history: tuple[GameState, ...] = ()

    @property
    def previous(self) -> GameState | None:
        history = self.history
        return history[0] if history else None

    def _here(self) -> tuple[object, ...]:
        return (self.rules, self.columns, self.stock, self.removed, self.actions, self.barrier)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        left: GameState | None = self
        right: GameState | None = other
        while left is not None and right is not None:
            if left is right:
                return True
            if left._here() != right._here():
                return False
            left, right = left.previous, right.previous
        return left is right

    def __hash__(self) -> int:
        return hash(self._here())

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as the flat list of its positions, newest first: a position goes to a
        solver process by pickle, and a long game's undo chain pickled link by link
        overflowed pickle's recursion limit (a few hundred undoable actions)."""
        chain: list[tuple[object, ...]] = []
        state: GameState | None = self
        while state is not None:
            chain.append(state._here())
            state = state.previous
        return _from_chain, (chain,)

    def __repr__(self) -> str:
        return (
            f"GameState(rules={self.rules!r}, columns={self.columns!r}, stock={self.stock!r},"
            f" removed={self.removed!r}, actions={self.actions!r}, barrier={self.barrier!r})"
        )

    @property
    def won(self) -> bool:
        return len(self.removed) >= RUNS_TO_WIN

    @property
    def status(self) -> Literal["playing", "won"]:
        return "won" if self.won else "playing"

    @property
    def deals_left(self) -> int:
        return (len(self.stock) + COLUMNS - 1) // COLUMNS

    @property
    def position(self) -> tuple[tuple[Column, ...], tuple[Card, ...], tuple[int, ...]]:
        """What is on the table, without rules, counters or undo history."""
        return (self.columns, self.stock, self.removed)

    def all_cards(self) -> list[Card]:
        cards: list[Card] = []
        for column in self.columns:
            cards.extend(column.down)
            cards.extend(column.up)
        cards.extend(self.stock)
        return cards


def _from_chain(chain: list[tuple[Any, ...]]) -> GameState:
    """The state :meth:`GameState.__reduce__` flattened, rebuilt oldest first."""
    state: GameState | None = None
    for rules, columns, stock, removed, actions, barrier in reversed(chain):
        state = GameState(rules, columns, stock, removed, actions, barrier,
                          () if state is None else (state,))
    assert state is not None, "a pickled state has at least its own position"
    return state
