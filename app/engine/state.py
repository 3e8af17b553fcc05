"""Immutable positions. A game is a fold of actions over a starting position."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.engine.cards import Card
from app.engine.rules import Rules

RUNS_TO_WIN = 8
COLUMNS = 10


@dataclass(frozen=True, slots=True)
class Column:
    down: tuple[Card, ...]
    up: tuple[Card, ...]

    @property
    def empty(self) -> bool:
        return not self.down and not self.up

    def __len__(self) -> int:
        return len(self.down) + len(self.up)


EMPTY_COLUMN = Column((), ())


@dataclass(frozen=True, slots=True, eq=False)
class GameState:
    """One position plus what undo needs.

    ``previous`` links to the position before the last undoable action (a persistent
    stack: undo is one pointer step and shares everything). ``barrier`` is true when the
    undo stack was cut by an action the rules make final.

    Equality is by value, history included, but walks the ``previous`` chain in a loop:
    the generated recursive ``__eq__``/``__hash__``/``__repr__`` overflowed the stack on
    long games. The hash leaves the history out (equal states still hash equal).
    """

    rules: Rules
    columns: tuple[Column, ...]
    stock: tuple[Card, ...]
    removed: tuple[int, ...]
    actions: int = 0
    previous: GameState | None = field(default=None, repr=False)
    barrier: bool = False

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

    @property
    def won(self) -> bool:
        return len(self.removed) >= RUNS_TO_WIN

    @property
    def status(self) -> str:
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
