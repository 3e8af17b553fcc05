"""Daily streaks: consecutive UTC days on which the player won that day's daily deal.

- A day **counts** when the player won the daily deal *of that day* (the game is the
  day's, wherever its last action falls: a daily started at 23:50 and won at 00:10 counts
  for the day it was started on).
- A day with no win (missed, lost or given up) **breaks** the streak.
- **Today** does not break it while the player may still win today's deal: the current
  streak runs up to today if today is won, else up to yesterday. Once today's only
  attempt is lost (``today_lost``), the current streak is 0.
- The best streak is the longest run of counted days ever, today's included.
- A day whose daily was won **with assists** (a hint, a rescue, undo-to-winnable:
  ``app/rewards/fair_play.py``) is **bridged**: it keeps the streak alive (the run goes
  on through it) but does not lengthen it. The daily is one attempt, and a hint there
  should not cost a long streak; a streak of assisted days only would be a bot's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from itertools import pairwise

ONE_DAY = timedelta(days=1)


class StreakInputError(ValueError):
    """A won day after today, or something that is not a calendar date."""


@dataclass(frozen=True, slots=True)
class Streak:
    current: int
    best: int
    last_won: date | None
    """The latest day that kept the streak going: counted or bridged (None before the
    first daily win)."""


NO_STREAK = Streak(0, 0, None)


def _day(value: object, what: str) -> date:
    if not isinstance(value, date) or isinstance(value, datetime):
        raise StreakInputError(f"{what} must be a calendar date, not {value!r}")
    return value


def daily_streak(won_days: Iterable[date], *, today: date, today_lost: bool = False,
                 bridged_days: Iterable[date] = ()) -> Streak:
    """The current and best streak from the days whose daily deal the player won.

    ``won_days`` may come in any order and repeat a day; none may be after ``today``.
    ``today_lost``: today's daily was played and not won (``today`` must then not be
    among the won days). ``bridged_days``: days won with assists (kept alive, not
    counted); a day in both lists counts.
    """
    today = _day(today, "today")
    counted = {_day(day, "a won day") for day in won_days}
    bridged = {_day(day, "a bridged day") for day in bridged_days} - counted
    days = sorted(counted | bridged)
    if days and days[-1] > today:
        raise StreakInputError(f"{days[-1]} is after today ({today}): it cannot be won yet")
    if today_lost and days and days[-1] == today:
        raise StreakInputError(f"today ({today}) cannot be both won and lost")
    if not days:
        return NO_STREAK
    best = run = int(days[0] in counted)
    for earlier, later in pairwise(days):
        step = int(later in counted)
        run = run + step if later - earlier == ONE_DAY else step
        best = max(best, run)
    # ``run`` is now the length of the run ending at the last won day
    alive = days[-1] == today or (days[-1] == today - ONE_DAY and not today_lost)
    return Streak(run if alive else 0, best, days[-1])
