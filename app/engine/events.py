"""What happened when an action was applied: the facts scoring and clients react to."""

from app.engine.cards import Card
from app.engine.values import Value


class CardsMoved(Value):
    src: int
    dst: int
    cards: tuple[Card, ...]
    onto: Card | None  # the face-up card the run landed on; None for an empty-for-building column


class CardFlipped(Value):
    col: int
    card: Card
    automatic: bool


class RowDealt(Value):
    cards: tuple[Card, ...]  # cards[i] landed on column i


class RunCompleted(Value):
    col: int
    suit: int


class GameWon(Value):
    """The eighth run left the table."""


class ActionUndone(Value):
    """The last undoable action was taken back; the position is the one before it."""


Event = CardsMoved | CardFlipped | RowDealt | RunCompleted | GameWon | ActionUndone

GAME_WON = GameWon()
ACTION_UNDONE = ActionUndone()
