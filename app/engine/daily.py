"""The daily deal: one 2-suit solvable deal per UTC day, the same for everyone, forever.

Version 1 (docs/deal-generator.md, "The daily deal"; changing anything here needs a new
version, the old one kept for the days already played):

1. The day is a calendar date in UTC, written ISO 8601: ``2025-03-01``.
2. Its deal number is the first 8 bytes (big-endian) of the SHA-256 of the ASCII text
   ``spider-duel/daily/v1/{day}``, modulo 999,999, plus one: a number 1–999,999 like any
   a player may pick.
3. The daily deal is that number's solvable 2-suit deal (mapping version 1,
   :mod:`app.engine.solver.solvable`), played under the ``classic`` rules.

So the daily deal of a day is also solo deal number N with 2 suits, "solvable only" on:
it is as public as any deal number (anyone with this page can work it out), which is
the price of "a documented function of the date". What the server keeps back is the
number itself while a player's daily game is in progress.
"""

import hashlib
from datetime import UTC, date, datetime

from app.engine.deal import deal
from app.engine.deal_numbers import DEAL_NUMBER_MAX
from app.engine.rules import Rules, preset
from app.engine.solver.solvable import SolvableDeal, solvable_deal
from app.engine.state import GameState

DAILY_VERSION = 1
DAILY_SUITS = 2
DAILY_PRESET = "classic"


class DailyDateError(ValueError):
    """Not a calendar date (a datetime, or a moment without a time zone)."""


def utc_day(moment: datetime) -> date:
    """The UTC calendar day of an aware moment: the day whose daily deal is on then."""
    if not isinstance(moment, datetime) or moment.utcoffset() is None:
        raise DailyDateError(f"the daily deal needs a moment with a time zone, not {moment!r}")
    return moment.astimezone(UTC).date()


def _check_day(day: date) -> date:
    # a datetime is a date too, but its text form (with a time) would name another deal
    if not isinstance(day, date) or isinstance(day, datetime):
        raise DailyDateError(f"the daily deal is named by a calendar date, not {day!r}")
    return day


def daily_deal_number(day: date) -> int:
    """The deal number (1–999,999) of ``day``'s daily deal."""
    text = f"spider-duel/daily/v{DAILY_VERSION}/{_check_day(day).isoformat()}"
    digest = hashlib.sha256(text.encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") % DEAL_NUMBER_MAX + 1


def daily_rules() -> Rules:
    return preset(DAILY_PRESET, DAILY_SUITS)


def daily_deal(day: date) -> SolvableDeal:
    """``day``'s daily deal: its number, the generator deal it maps to, its difficulty and
    a verified win. The first call for a day runs the solver (well under a second for
    most 2-suit numbers, a few seconds at worst); later ones are cached."""
    return solvable_deal(daily_deal_number(day), DAILY_SUITS)


def daily_start(day: date) -> GameState:
    """The starting position of ``day``'s daily deal, under the ``classic`` rules."""
    return deal(daily_deal(day).source, daily_rules())
