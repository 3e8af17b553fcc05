"""Everything about a game that the rooms layer sends anywhere is built here.

Positions go out only through ``app.engine.view.player_view`` (face-down cards and the
stock order appear as counts). Events go out by card *name* only, and only for cards that
are face up once the action is done: a moved run, a flipped card, a dealt row. Card ids
(which follow the deal's layout order) never leave the server.
"""

from __future__ import annotations

from typing import Any

from app.engine.cards import SUITS, card_name, names
from app.engine.events import (
    ActionUndone,
    CardFlipped,
    CardsMoved,
    Event,
    GameWon,
    RowDealt,
    RunCompleted,
)
from app.engine.state import GameState
from app.engine.view import ViewMemo, player_view


def game_view(state: GameState, memo: ViewMemo | None = None) -> dict[str, Any]:
    """The view of ``state``; with the game's ``memo``, sharing its unchanged columns."""
    return player_view(state, memo)


def event_json(event: Event) -> dict[str, Any]:
    if isinstance(event, CardsMoved):
        return {
            "kind": "moved", "from": event.src, "to": event.dst, "cards": names(event.cards),
        }
    if isinstance(event, CardFlipped):
        return {
            "kind": "flipped", "col": event.col, "card": card_name(event.card),
            "automatic": event.automatic,
        }
    if isinstance(event, RowDealt):
        return {"kind": "dealt", "cards": names(event.cards)}
    if isinstance(event, RunCompleted):
        return {"kind": "run_completed", "col": event.col, "suit": SUITS[event.suit]}
    if isinstance(event, GameWon):
        return {"kind": "won"}
    if isinstance(event, ActionUndone):
        return {"kind": "undone"}
    raise TypeError(f"unknown event {event!r}")


def events_json(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    return [event_json(event) for event in events]
