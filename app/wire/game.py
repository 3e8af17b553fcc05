"""The parts of a frame that say a game: its view, its rules, an action, its record.

A ``GameView`` is made by ``app.engine.view.player_view`` alone, the one projection of a
game in progress (face-down cards and the stock order appear as counts); the engine
imports this module, which imports nothing but msgspec, for it. The others are made by
the frames' builders (``app/rooms/frames.py``) from the engine's values. Fields are
encoded in the order declared here; an ``UNSET`` field is left out.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, UnsetType

from app.wire.base import Part, described

Card = Annotated[str, described("A card's name: rank + suit (A 2-9 T J Q K, s h d c).")]
Suit = Literal["s", "h", "d", "c"]


class ColumnView(Part, frozen=True):
    """A column as a player sees it: how many cards lie face down, and the face-up ones."""

    down: Annotated[int, described("How many face-down cards (never which).")]
    up: Annotated[list[Card], described("The face-up cards, from the deepest one.")]


class GameView(Part, frozen=True):
    """The player's view of a game (``app.engine.view.player_view``)."""

    columns: Annotated[list[ColumnView], described("The 10 columns, from the left.")]
    stock: Annotated[int, described("How many cards are left in the stock (never which).")]
    deals_left: int
    removed: Annotated[list[Suit], described("The suit of each completed run, in order.")]
    status: Literal["playing", "won"]
    actions: Annotated[int, described("Actions applied so far (undos included).")]
    can_undo: bool


class GameRules(Part, frozen=True):
    """A game's rules: a preset and its suit count, and the options that differ from the
    preset's only (the rule book's ``rules`` object)."""

    preset: Literal["classic", "relaxed", "duel"]
    suits: Literal[1, 2, 4]
    flip: Literal["auto", "manual"] | UnsetType = UNSET
    deal_over_empty: bool | UnsetType = UNSET
    undo: Literal["all", "moves"] | UnsetType = UNSET
    scoring: Literal["duel", "windows", "aisleriot"] | UnsetType = UNSET


class ActionPart(msgspec.Struct, tag_field="op", frozen=True, gc=False,
                 forbid_unknown_fields=True):
    """An action in the rule book's JSON form; each subclass fixes its ``op``. No other
    field: the rule book refuses one (``app.engine.actions.action_from_json``)."""


class MoveAction(ActionPart, tag="move", frozen=True):
    """Move ``count`` cards from the top of one column to another (columns from 0)."""

    src: int = msgspec.field(name="from")
    dst: int = msgspec.field(name="to")
    count: int


class DealAction(ActionPart, tag="deal", frozen=True):
    """Deal a row from the stock."""


class FlipAction(ActionPart, tag="flip", frozen=True):
    """Turn the top face-down card of a column face up (manual flips)."""

    col: int


class UndoAction(ActionPart, tag="undo", frozen=True):
    """Take the last action back."""


PlayedAction = MoveAction | DealAction | FlipAction | UndoAction
"""An action as a frame says it: ``{"op": "move", "from": 3, "to": 7, "count": 2}``,
``{"op": "deal"}``, ``{"op": "flip", "col": 4}``, ``{"op": "undo"}``."""


class LayoutColumn(Part, frozen=True):
    down: list[Card]
    up: list[Card]


class Layout(Part, frozen=True):
    """A whole position in the rule book's layout form, face-down cards and stock
    included: only in a finished match's record or revealed deal."""

    tableau: list[LayoutColumn]
    stock: list[Card]
    removed: list[Suit] | UnsetType = UNSET


class GameRecord(Part, frozen=True):
    """A game's record in the rule book's form: its rules, its starting layout, and every
    action logged (undos included), in order."""

    rules: GameRules
    layout: Layout
    moves: list[PlayedAction]
