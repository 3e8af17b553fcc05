"""A match's deal: chosen once when both seats are filled, stored, and rebuilt from storage.

Stored form: ``{"number": N, "generator": 1, "difficulty": ...}`` for the built-in generator,
or ``{"layout": {...}}`` for a test layout (only when ``allow_test_layouts`` is on).
"""

from __future__ import annotations

import secrets
from typing import Any

from app.engine.deal import GENERATOR_VERSION, deal
from app.engine.layout import state_from_layout
from app.engine.rules import Rules
from app.engine.state import GameState
from app.ids import INT_COLUMN_MAX

MAX_DEAL_NUMBER = INT_COLUMN_MAX  # fits every database's INTEGER


class DealError(ValueError):
    """A stored deal that cannot be rebuilt (unknown form)."""


def random_deal_number() -> int:
    """A fresh random generator deal number in [1, MAX_DEAL_NUMBER]."""
    return secrets.randbelow(MAX_DEAL_NUMBER) + 1


def choose_deal(rules: Rules) -> dict[str, Any]:
    """A fresh random deal number, for a store that did not choose the deal itself.

    The SQL store's matches get their deal when created, from ``app.services.deals.choose_deal``
    (solvable only for 1 and 2 suits, with a difficulty); only the in-memory store used by
    the rooms tests comes here, so ``difficulty`` stays ``None``.
    """
    return {"number": random_deal_number(), "generator": GENERATOR_VERSION, "difficulty": None}


def start_state(rules: Rules, stored: dict[str, Any]) -> GameState:
    """The starting position of a stored deal: its layout if any, else its generator deal
    (the one place both the live layer and the services rebuild a deal)."""
    if "layout" in stored:
        return state_from_layout(rules, stored["layout"])
    if "number" in stored:
        return deal(stored["number"], rules, stored.get("generator") or GENERATOR_VERSION)
    raise DealError(f"a stored deal needs 'number' or 'layout', not {sorted(stored)}")


def public_deal(stored: dict[str, Any]) -> dict[str, Any]:
    """What may be revealed once both games are over (the whole deal)."""
    return {key: value for key, value in stored.items() if key in ("number", "generator",
                                                                    "difficulty", "layout")}
