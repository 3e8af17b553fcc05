"""Which deal a match plays, and how a game's position is rebuilt from the action log.

``choose_deal`` is the single place that picks a match's deal:

- 1 and 2 suits, difficulty "any": "solvable only" by default: a random deal number N
  goes through the solver's mapping (``app.engine.solver.solvable``, version 1) to the
  generator deal that the solver has won; that generator deal's number is stored as the
  match's deal number, with its difficulty.
- A difficulty (any suit count), and 4 suits with difficulty "any": a random generator
  deal the solver won with the suit count's budget (``DUEL_SOLVE_NODES``), rated by the
  solver's effort (``app.engine.solver.difficulty_of``) — docs/solo-and-daily.md §8.

Deals solved ahead of need wait in the process's deal pool (``app/services/deal_pool.py``);
``choose_deal`` takes one when it can and otherwise searches one itself in a solver
process (``app.runtime.solver_worker``; a rated search for at most the pool's
``wait_seconds``, then any solved deal).
Storing the generator number keeps every record verifiable with ``spider replay``
(``{"deal": {"number": ...}}``).

Every number drawn here is a duel number (1,000,000 to 2**48 − 1,
``app.engine.deal_numbers.random_duel_number``): never one a player picks, and too many
to deal ahead, so nobody recognises a duel's deal from its opening cards. It is kept as
the match's ``play_number``: a solo game on that number (a solo game accepts it), with the
match's suit count and "solvable only" on or off, deals the very same cards. It is a
seed, so it is revealed only once the match is over (``app.rooms.frames.revealed_deal``,
results).
"""

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from app.db.games import DealChoice
from app.db.models import GameAction, Match
from app.engine.daily import daily_deal, daily_deal_number
from app.engine.deal import GENERATOR_VERSION, deal
from app.engine.deal_numbers import random_duel_number
from app.engine.record import Record
from app.engine.rules import Rules, preset
from app.engine.solver import difficulty_of, solvable_by_default, solvable_deal, solve
from app.engine.state import GameState
from app.rooms import deal_forms
from app.rooms.seat_log import actions_of, replay_log
from app.runtime.solver_worker import off_loop
from app.services import deal_pool
from app.services.deal_pool import SOLVABLE, Bin, DealPool

DUEL_SOLVE_NODES = {1: 20_000, 2: 100_000, 4: 400_000}
"""Each suit count's solver budget when rating a duel deal's difficulty."""
ANY = "any"


async def choose_deal(
    *, suits: int, solvable_only: bool | None = None, pool: DealPool | None = None,
    difficulty: str = ANY, wait_seconds: float | None = None,
) -> DealChoice:
    """The deal for a new match (solvable by default; see the module's docstring).

    Deals come from ``pool`` (default: the process's installed pool) when it has one
    ready; otherwise the solver runs now, in a solver process (``off_loop``).
    ``wait_seconds`` (default: the pool's, else ``deal_pool.WAIT_SECONDS``) bounds a
    search for one difficulty.
    """
    pool = pool if pool is not None else deal_pool.installed()
    if difficulty != ANY or (suits == 4 and solvable_only is not False):
        wait = wait_seconds if wait_seconds is not None else (
            pool.wait_seconds if pool is not None else deal_pool.WAIT_SECONDS)
        return await _rated_deal(suits, difficulty, pool=pool, wait_seconds=wait)
    if solvable_only is None:
        solvable_only = solvable_by_default(suits)
    if not solvable_only:
        number = random_duel_number()
        return DealChoice(deal_number=number, generator_version=GENERATOR_VERSION,
                          play_number=number)
    ready = pool.take((suits, SOLVABLE)) if pool is not None else None
    if ready is not None:
        return ready
    # The solver takes milliseconds to a few seconds: keep it off the event loop.
    return await off_loop(solvable_choice, suits)


async def _rated_deal(suits: int, difficulty: str, *, pool: DealPool | None,
                      wait_seconds: float) -> DealChoice:
    """A pooled rated deal of ``difficulty``; else one searched now for at most
    ``wait_seconds``; past that any solved deal: one found on the way, a pooled one of
    another difficulty, else the next one the solver wins (docs/solo-and-daily.md §8)."""
    if pool is not None:
        ready = pool.take_rated(suits) if difficulty == ANY else pool.take((suits, difficulty))
        if ready is not None:
            return ready
    found = await off_loop(rated_search, suits, difficulty, wait_seconds=wait_seconds)
    others = list(found.others)
    choice = found.choice or (others.pop(0) if others else None)
    if pool is not None:
        for other in others:
            pool.offer((suits, str(other.difficulty)), other)
        choice = choice or pool.take_rated(suits)
    if choice is not None:
        return choice
    # Nothing solved in time, nothing pooled: the first deal the solver wins, however long.
    found = await off_loop(rated_search, suits, ANY, wait_seconds=math.inf)
    assert found.choice is not None  # an endless search ends only with a deal
    return found.choice


class DrawCancelled(Exception):
    """A rated draw given up because its ``cancelled`` event was set (the pool stops)."""


def rated_draw(suits: int, *, cancelled: threading.Event | None = None,
               seconds: float | None = None) -> DealChoice | None:
    """One random generator deal, solved with the suit count's budget and rated by the
    solver's effort (nodes: the same rating on any machine); ``None`` if the solver did
    not win it, within ``seconds`` if given (CPU-bound: a thread).

    Setting ``cancelled`` stops the search within about a thousand nodes (a 4-suit solve
    may otherwise take ~10 s): the draw then raises :class:`DrawCancelled`.
    """
    number = random_duel_number()

    def watch(nodes: int, depth: int) -> None:
        if cancelled is not None and cancelled.is_set():
            raise DrawCancelled

    found = solve(deal(number, preset("classic", suits)), nodes=DUEL_SOLVE_NODES[suits],
                  seconds=seconds, progress=watch)
    if not found.solved:
        return None
    return DealChoice(deal_number=number, generator_version=GENERATOR_VERSION,
                      difficulty=difficulty_of(found.nodes, suits=suits), play_number=number)


Draw = Callable[..., DealChoice | None]
"""``rated_draw``'s shape: ``draw(suits, seconds=...)``."""


@dataclass(frozen=True)
class RatedSearch:
    choice: DealChoice | None
    """The deal of the asked difficulty, or ``None``: none was found in time."""
    others: list[DealChoice] = field(default_factory=list)
    """Deals solved on the way, of other difficulties (for the pool's bins)."""


def rated_search(suits: int, difficulty: str, *, wait_seconds: float,
                 clock: Callable[[], float] = time.monotonic,
                 draw: Draw | None = None) -> RatedSearch:
    """Draw rated deals until one has ``difficulty`` (``"any"``: the first solved one),
    for at most ``wait_seconds``: each draw's solve is capped at the time left, so the
    search ends near its deadline even on a busy machine. CPU-bound: ``off_loop``."""
    draw = draw or rated_draw  # looked up now: tests replace it
    deadline = clock() + wait_seconds
    others: list[DealChoice] = []
    while (left := deadline - clock()) > 0:
        choice = draw(suits, seconds=None if math.isinf(left) else left)
        if choice is None:
            continue
        if difficulty in (ANY, choice.difficulty):
            return RatedSearch(choice, others)
        others.append(choice)
    return RatedSearch(None, others)


def pooled_deal(bin_: Bin, *, cancelled: threading.Event | None = None) -> DealChoice | None:
    """The deal pool's ``make``: a solvable deal, or one rated draw (lands by difficulty)."""
    suits, flavour = bin_
    if flavour == SOLVABLE:
        return solvable_choice(suits)  # a few seconds at worst: not worth interrupting
    return rated_draw(suits, cancelled=cancelled)


def daily_choice(day: date) -> DealChoice:
    """The daily duel's deal: ``day``'s daily deal, the very cards of the daily solo game
    (CPU-bound the first time of a day: ``off_loop``)."""
    found = daily_deal(day)
    return DealChoice(deal_number=found.source, generator_version=GENERATOR_VERSION,
                      difficulty=found.difficulty, play_number=daily_deal_number(day),
                      play_solvable_only=True)


def solvable_choice(suits: int) -> DealChoice:
    """A solvable deal for a new match from a fresh random number (CPU-bound: ``off_loop``)."""
    number = random_duel_number()
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


def rebuild(match: Match, rows: tuple[GameAction, ...] | list[GameAction]) -> GameState:
    """The game's current position: the start replayed through the logged actions."""
    return replay_log(start_state(match), rows)


def game_record(match: Match, rows: tuple[GameAction, ...] | list[GameAction]) -> dict[str, Any]:
    """The rule book's JSON record of one game (deal number, or layout when stored)."""
    record = Record(
        rules=match_rules(match),
        start=start_state(match),
        actions=actions_of(rows),
        deal_number=match.deal_number if _by_number(match) else None,
    )
    return record.to_json()


def _by_number(match: Match) -> bool:
    # A record names a deal by number only for the current generator; otherwise the layout.
    return match.layout is None and match.generator_version in (None, GENERATOR_VERSION)
