"""A match's deal: chosen once when both seats are filled, stored, and rebuilt from storage.

Stored form: ``{"difficulty": ..., "number": N, "generator": 1, "play": {...}}`` for the
built-in generator (``play``: the solo options that deal it again, ``app.services.deals``),
or ``{"difficulty": ..., "layout": {...}}`` for a chosen layout (only the tests' layout
route sets one); the match's result reveals it (``app.rooms.frames.revealed_deal``).
"""

from __future__ import annotations

from typing import Any

from app.engine.deal import GENERATOR_VERSION, deal
from app.engine.deal_numbers import random_duel_number
from app.engine.layout import state_from_layout
from app.engine.rules import Rules
from app.engine.state import GameState


class DealError(ValueError):
    """A stored deal that cannot be rebuilt (unknown form)."""


def choose_deal(rules: Rules) -> dict[str, Any]:
    """A fresh random deal number, for a store that did not choose the deal itself.

    The SQL store's matches get their deal when created, from ``app.services.deals.choose_deal``
    (solvable only for 1 and 2 suits, with a difficulty); only the in-memory store used by
    the rooms tests comes here, so ``difficulty`` stays ``None``.
    """
    number = random_duel_number()  # a solo game on it deals it again: "play this deal"
    return {"difficulty": None, "number": number, "generator": GENERATOR_VERSION,
            "play": {"number": number, "suits": rules.suits, "solvable_only": False}}


def start_state(rules: Rules, stored: dict[str, Any]) -> GameState:
    """The starting position of a stored deal: its layout if any, else its generator deal
    (the one place both the live layer and the services rebuild a deal)."""
    if "layout" in stored:
        return state_from_layout(rules, stored["layout"])
    if "number" in stored:
        return deal(stored["number"], rules, stored.get("generator") or GENERATOR_VERSION)
    raise DealError(f"a stored deal needs 'number' or 'layout', not {sorted(stored)}")
