"""Points for a solo win: suit count, speed, economy of actions, options, rescues.

The formula, why, and worked examples: docs/points.md (each example is a unit test).
Only a win earns points; everything is whole numbers, so every machine agrees::

    base      = 1000 × suits
    speed     = base × (time left of the suit count's span)   / span, in whole ‰
    economy   = base × (actions left of the suit count's span) / span, in whole ‰
    options   = × 1.2 when "solvable only" is off, × 0.8 under the relaxed rule
    points    = max(base / 10, ⌊(base + speed + economy) × options⌋ − rescues × base / 4)

Faster or with fewer actions never pays less, more suits never pays less, a rescue
never pays more; a win pays between ``base / 10`` and ``3.6 × base``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.rewards.solo import SoloOptions

POINTS_PER_SUIT = 1_000
SPEED_SPAN_MS = {1: 15 * 60_000, 2: 30 * 60_000, 4: 60 * 60_000}
"""The speed bonus falls from the whole base at 0 s to nothing at this time (per suits)."""
ACTIONS_PAR = {1: 120, 2: 150, 4: 200}
"""Up to this many actions the economy bonus is the whole base."""
ACTIONS_SPAN = {1: 400, 2: 600, 4: 800}
"""Past the par, the economy bonus falls to nothing over this many actions."""
RANDOM_DEAL = Fraction(6, 5)
"""A win on a random deal ("solvable only" off), which may have had no solution."""
RELAXED_RULE = Fraction(4, 5)
"""A win under the relaxed rule (deals over empty columns allowed)."""
RESCUE_SHARE = Fraction(1, 4)
"""Each rescue that played actions costs this share of the base."""
FLOOR_SHARE = Fraction(1, 10)
"""A win always pays at least this share of the base."""
PERMILLE = 1_000


class PointsInputError(ValueError):
    """A time, action count or rescue count that no game can have."""


@dataclass(frozen=True, slots=True)
class EarnedPoints:
    """Each term of a win's points, as the result screen shows them."""

    base: int
    speed: int
    economy: int
    multiplier: Fraction
    rescue_cost: int
    floor: int
    total: int

    def to_json(self) -> dict[str, Any]:
        """The JSON form of REST and WebSocket answers; the multiplier as ``"6/5"``."""
        return {
            "base": self.base, "speed": self.speed, "economy": self.economy,
            "multiplier": str(self.multiplier), "rescue_cost": self.rescue_cost,
            "floor": self.floor, "total": self.total,
        }


def _count(value: object, name: str) -> int:
    if type(value) is not int or value < 0:
        raise PointsInputError(f"{name} must be a whole number from 0 up, not {value!r}")
    return value


def _left_permille(used: int, span: int) -> int:
    """The share of ``span`` still unused, in whole thousandths (rounded down)."""
    return (span - min(used, span)) * PERMILLE // span


def rescue_cost(options: SoloOptions) -> int:
    """What one rescue that played actions costs at the end, if the game is won."""
    return int(POINTS_PER_SUIT * options.suits * RESCUE_SHARE)


def options_multiplier(options: SoloOptions) -> Fraction:
    multiplier = Fraction(1)
    if not options.solvable_only:
        multiplier *= RANDOM_DEAL
    if options.relaxed:
        multiplier *= RELAXED_RULE
    return multiplier


def points_breakdown(
    *, options: SoloOptions, elapsed_ms: int, actions: int, rescues: int = 0
) -> EarnedPoints:
    """The points of a win and how they add up.

    ``elapsed_ms``: playing time, from the game's first opening to the winning action.
    ``actions``: every legal action of the game (undos, rescue and auto-complete actions
    included), the count the ``windows`` score shows. ``rescues``: rescues that played
    actions for the player (one that found no way out costs nothing). Hints and
    auto-complete cost nothing.
    """
    elapsed_ms = _count(elapsed_ms, "elapsed_ms")
    actions = _count(actions, "actions")
    rescues = _count(rescues, "rescues")
    suits = options.suits
    base = POINTS_PER_SUIT * suits  # a multiple of 1000: base × ‰ / 1000 is exact
    speed = base * _left_permille(elapsed_ms, SPEED_SPAN_MS[suits]) // PERMILLE
    over_par = max(0, actions - ACTIONS_PAR[suits])
    economy = base * _left_permille(over_par, ACTIONS_SPAN[suits]) // PERMILLE
    multiplier = options_multiplier(options)
    rescues_cost = rescue_cost(options) * rescues
    floor = int(base * FLOOR_SHARE)
    earned = int((base + speed + economy) * multiplier) - rescues_cost  # int() rounds down here
    return EarnedPoints(base, speed, economy, multiplier, rescues_cost, floor,
                           max(floor, earned))


def win_points(*, options: SoloOptions, elapsed_ms: int, actions: int, rescues: int = 0) -> int:
    """The points of a solo (or daily) win; see :func:`points_breakdown`."""
    return points_breakdown(
        options=options, elapsed_ms=elapsed_ms, actions=actions, rescues=rescues
    ).total


def max_points(options: SoloOptions) -> int:
    """The most a win with ``options`` can pay: instantly, within the actions' par, unaided."""
    return win_points(options=options, elapsed_ms=0, actions=0)
