"""Immutable positions. A game is a fold of actions over a starting position."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class GameState:
    """One position plus what undo needs.

    ``previous`` links to the position before the last undoable action (a persistent
    stack: undo is one pointer step and shares everything). ``barrier`` is true when the
    undo stack was cut by an action the rules make final.
    """

    rules: Rules
    columns: tuple[Column, ...]
    stock: tuple[Card, ...]
    removed: tuple[int, ...]
    actions: int = 0
    previous: GameState | None = None
    barrier: bool = False

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
