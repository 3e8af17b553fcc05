"""The parts of a frame that say a game: its view.

A ``GameView`` is made by ``app.engine.view.player_view`` alone, the one projection of a
game in progress (face-down cards and the stock order appear as counts); the engine
imports this module, which imports nothing but msgspec, for it. Fields are encoded in
the order declared here.
"""

from __future__ import annotations

from typing import Annotated, Literal

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
