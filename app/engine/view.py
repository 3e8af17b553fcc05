"""The one projection of a game that may leave the server while the game is in progress.

Face-down cards and the stock order never appear: only their counts.
"""

from typing import Any

from app.engine.cards import FACE, FACE_NAMES, SUITS
from app.engine.state import GameState


def player_view(state: GameState) -> dict[str, Any]:
    # Built for every answer to an action: card names by table lookup, inline.
    table = FACE_NAMES
    return {
        "columns": [
            {"down": len(column.down), "up": [table[card & FACE] for card in column.up]}
            for column in state.columns
        ],
        "stock": len(state.stock),
        "deals_left": state.deals_left,
        "removed": [SUITS[suit] for suit in state.removed],
        "status": state.status,
        "actions": state.actions,
        "can_undo": state.previous is not None,
    }
