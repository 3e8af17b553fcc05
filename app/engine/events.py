"""What happened when an action was applied: the facts scoring and clients react to."""

from dataclasses import dataclass

from app.engine.cards import Card


@dataclass(frozen=True, slots=True)
class CardsMoved:
    src: int
    dst: int
    cards: tuple[Card, ...]
    onto: Card | None  # the face-up card the run landed on; None for an empty-for-building column


@dataclass(frozen=True, slots=True)
class CardFlipped:
    col: int
    card: Card
    automatic: bool


@dataclass(frozen=True, slots=True)
class RowDealt:
    cards: tuple[Card, ...]  # cards[i] landed on column i


@dataclass(frozen=True, slots=True)
class RunCompleted:
    col: int
    suit: int


@dataclass(frozen=True, slots=True)
class GameWon:
    pass


@dataclass(frozen=True, slots=True)
class ActionUndone:
    """The last undoable action was taken back; the position is the one before it."""


Event = CardsMoved | CardFlipped | RowDealt | RunCompleted | GameWon | ActionUndone
