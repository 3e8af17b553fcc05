"""Which deal a match plays, and how a game's position is rebuilt from the action log.

``choose_deal`` is the single place that picks a match's deal. For 1 and 2 suits it is
"solvable only" by default: a random deal number N goes through the solver's mapping
(``app.engine.solver.solvable``, version 1) to the generator deal that the solver has won,
and that generator deal's number is stored as the match's deal number, with the
solver's difficulty. Deals solved ahead of need wait in the process's deal pool
(``app/services/deal_pool.py``); ``choose_deal`` takes one when it can and otherwise solves
one itself, as without a pool. Storing the generator number keeps every record verifiable with
``spider replay`` (``{"deal": {"number": ...}}``). 4-suit deals are random, unless the
table asks for a difficulty: then any suit count gets a solved deal of that difficulty
(``rated_choice``).

Every number drawn here is a solo deal number (1–999,999, ``app.engine.deal_numbers``),
kept as the match's ``play_number``: a solo game on that number, with the match's suit
count and "solvable only" on or off (``play_this_deal``), deals the very same cards. It
is a seed, so it is revealed only once the match is over (``public_deal``, results).
"""

import asyncio
import time
from collections.abc import Callable
from typing import Any

from app.db.games import DealChoice
from app.db.models import GameAction, Match
from app.engine.actions import Action, action_from_json
from app.engine.deal import GENERATOR_VERSION, deal
from app.engine.deal_numbers import random_deal_number
from app.engine.game import replay
from app.engine.record import Record
from app.engine.rules import Rules, preset
from app.engine.solver import solve
from app.engine.solver.difficulty import difficulty_of
from app.engine.solver.solvable import solvable_by_default, solvable_deal
from app.engine.state import GameState
from app.rooms import deal_forms
from app.services import deal_pool
from app.services.deal_pool import DealPool

DUEL_SOLVE_NODES = {1: 20_000, 2: 100_000, 4: 400_000}
"""Each suit count's solver budget when rating a duel deal's difficulty."""
DEAL_WAIT_SECONDS = 10.0
"""How long a search for a deal of one difficulty may last before any solved deal does."""


async def choose_deal(
    *, suits: int, solvable_only: bool | None = None, pool: DealPool | None = None,
    difficulty: str = "any", wait_seconds: float = DEAL_WAIT_SECONDS,
) -> DealChoice:
    """The deal for a new match (solvable only by default for 1 and 2 suits).

    Solvable deals come from ``pool`` (default: the process's installed pool) when it has
    one ready; otherwise the solver runs now. The rules preset does not matter: solvable
    deals are solved under the strictest rules (see ``app.engine.solver.solvable``).
    """
    if difficulty != "any":  # a rated deal of that difficulty, any suit count
        return await asyncio.to_thread(rated_choice, suits, difficulty,
                                       wait_seconds=wait_seconds)
    if solvable_only is None:
        solvable_only = solvable_by_default(suits)
    if not solvable_only:
        number = random_deal_number()
        return DealChoice(deal_number=number, generator_version=GENERATOR_VERSION,
                          play_number=number)
    pool = pool if pool is not None else deal_pool.installed()
    ready = pool.take(suits) if pool is not None else None
    if ready is not None:
        return ready
    # The solver takes milliseconds to a few seconds: keep it off the event loop.
    return await asyncio.to_thread(solvable_choice, suits)


def rated_choice(suits: int, difficulty: str, *, wait_seconds: float = DEAL_WAIT_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> DealChoice:
    """A solved generator deal of ``difficulty`` (CPU-bound: a thread).

    Draws random generator deals and solves each with the suit count's budget
    (``DUEL_SOLVE_NODES``), rating it by the nodes used; keeps the first of the asked
    difficulty. Past ``wait_seconds`` it takes the next solved deal whatever its
    difficulty (stored as found), so a match always starts (docs/solo-and-daily.md §8).
    """
    rules = preset("classic", suits)
    deadline = clock() + wait_seconds
    while True:
        number = random_deal_number()
        found = solve(deal(number, rules), nodes=DUEL_SOLVE_NODES[suits])
        if not found.solved:
            continue
        rated = difficulty_of(found.nodes, suits=suits)
        if rated == difficulty or clock() >= deadline:
            return DealChoice(deal_number=number, generator_version=GENERATOR_VERSION,
                              difficulty=rated, play_number=number)


def solvable_choice(suits: int) -> DealChoice:
    """A solvable deal for a new match from a fresh random number (CPU-bound: a thread)."""
    number = random_deal_number()
    found = solvable_deal(number, suits)
    return DealChoice(deal_number=found.source, generator_version=GENERATOR_VERSION,
                      difficulty=found.difficulty, play_number=number,
                      play_solvable_only=True)


def match_rules(match: Match) -> Rules:
    return preset(match.preset, match.suits)


def stored_deal(match: Match) -> dict[str, Any]:
    """The match's deal in the live layer's stored form (``app/rooms/deal_forms.py``): its
    public number and, when the cards differ from the generator's deal of that number
    (solvable mapping, test layout), the layout, which then wins."""
    stored: dict[str, Any] = {"difficulty": match.difficulty}
    if match.deal_number is not None:
        stored["number"] = match.deal_number
        stored["generator"] = match.generator_version
    if match.layout is not None:
        stored["layout"] = match.layout
    play = play_this_deal(match)
    if play is not None:
        stored["play"] = play
    return stored


def play_this_deal(match: Match) -> dict[str, Any] | None:
    """The solo options that deal the match's cards again: ``{"number", "suits",
    "solvable_only"}`` (``app.rewards.solo.solo_start``), or ``None`` (a test layout, an
    older match)."""
    if match.play_number is None or not _by_number(match):
        return None
    return {"number": match.play_number, "suits": match.suits,
            "solvable_only": bool(match.play_solvable_only)}


def start_state(match: Match, rules: Rules | None = None) -> GameState:
    """The match's starting position (``rules`` may override the match's, e.g. to score a
    ``classic`` game by ``duel``)."""
    return deal_forms.start_state(rules or match_rules(match), stored_deal(match))


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
