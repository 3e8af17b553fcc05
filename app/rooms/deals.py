"""Which deal a match plays, and how a game's position is rebuilt from the action log.

``choose_deal`` is the single place that picks a match's deal: for now a random deal
number from the built-in generator. The solver work will swap in a solvable-deal
mapping (and a difficulty) here, nowhere else.
"""

import secrets
from typing import Any

from app.db.games import DealChoice
from app.db.models import GameAction, Match
from app.engine.actions import Action, action_from_json
from app.engine.deal import GENERATOR_VERSION, deal
from app.engine.game import replay
from app.engine.layout import state_from_layout
from app.engine.record import Record
from app.engine.rules import Rules, preset
from app.engine.state import GameState

# Deal numbers are drawn from [1, 2**31 - 1] so they fit every database's INTEGER.
MAX_DEAL_NUMBER = 2**31 - 1


def choose_deal(*, preset_name: str, suits: int) -> DealChoice:
    """The deal for a new match. Swap point for solvable deals (issue 3)."""
    number = secrets.randbelow(MAX_DEAL_NUMBER) + 1
    return DealChoice(deal_number=number, generator_version=GENERATOR_VERSION)


def match_rules(match: Match) -> Rules:
    return preset(match.preset, match.suits)


def start_state(match: Match, rules: Rules | None = None) -> GameState:
    """The match's starting position: its stored layout if any, else its generator deal.

    ``rules`` may override the match's rules (e.g. to score a ``classic`` game by ``duel``).
    """
    rules = rules or match_rules(match)
    if match.layout is not None:
        return state_from_layout(rules, match.layout)
    assert match.deal_number is not None  # the schema requires a deal number or a layout
    return deal(match.deal_number, rules, match.generator_version or GENERATOR_VERSION)


def logged_actions(rows: tuple[GameAction, ...] | list[GameAction]) -> tuple[Action, ...]:
    return tuple(action_from_json(row.action) for row in sorted(rows, key=lambda r: r.seq))


def rebuild(match: Match, rows: tuple[GameAction, ...] | list[GameAction]) -> GameState:
    """The game's current position: the start replayed through the logged actions."""
    return replay(start_state(match), logged_actions(rows))


def game_record(match: Match, rows: tuple[GameAction, ...] | list[GameAction]) -> dict[str, Any]:
    """The rule book's JSON record of one game (deal number, or layout when stored)."""
    record = Record(
        rules=match_rules(match),
        start=start_state(match),
        actions=logged_actions(rows),
        deal_number=match.deal_number if _by_number(match) else None,
    )
    return record.to_json()


def _by_number(match: Match) -> bool:
    # A record names a deal by number only for the current generator; otherwise the layout.
    return match.layout is None and match.generator_version in (None, GENERATOR_VERSION)
