"""Daily streaks: examples of each rule, and properties against a day-by-day model."""

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rewards.streaks import NO_STREAK, Streak, StreakInputError, daily_streak

TODAY = date(2025, 3, 10)
DAY = timedelta(days=1)


def days_before(*offsets: int) -> list[date]:
    return [TODAY - offset * DAY for offset in offsets]


def test_no_win_no_streak() -> None:
    assert daily_streak([], today=TODAY) == NO_STREAK == Streak(0, 0, None)


def test_a_streak_ending_today() -> None:
    assert daily_streak(days_before(0, 1, 2), today=TODAY) == Streak(3, 3, TODAY)


def test_today_not_yet_played_does_not_break_it() -> None:
    assert daily_streak(days_before(1, 2, 3, 4), today=TODAY) == Streak(4, 4, TODAY - DAY)


def test_a_missed_day_breaks_it() -> None:
    # won 2..4 days ago, missed yesterday: the streak is over; the best remains
    assert daily_streak(days_before(2, 3, 4), today=TODAY) == Streak(0, 3, TODAY - 2 * DAY)


def test_losing_today_breaks_it() -> None:
    assert daily_streak(days_before(1, 2), today=TODAY, today_lost=True) == Streak(
        0, 2, TODAY - DAY
    )


def test_the_best_streak_is_the_longest_run_ever() -> None:
    won = days_before(0, 1, 5, 6, 7, 8, 20)
    assert daily_streak(won, today=TODAY) == Streak(2, 4, TODAY)


def test_order_and_repeats_do_not_matter() -> None:
    won = days_before(0, 1, 2)
    assert daily_streak([*reversed(won), *won], today=TODAY) == daily_streak(won, today=TODAY)


def test_month_and_year_ends_are_consecutive_days() -> None:
    won = [date(2024, 12, 30), date(2024, 12, 31), date(2025, 1, 1), date(2024, 2, 28),
           date(2024, 2, 29), date(2024, 3, 1)]
    assert daily_streak(won, today=date(2025, 1, 2)) == Streak(3, 3, date(2025, 1, 1))


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(StreakInputError, match="after today"):
        daily_streak([TODAY + DAY], today=TODAY)
    with pytest.raises(StreakInputError, match="both won and lost"):
        daily_streak([TODAY], today=TODAY, today_lost=True)
    with pytest.raises(StreakInputError, match="calendar date"):
        daily_streak([datetime(2025, 3, 9, 12)], today=TODAY)
    with pytest.raises(StreakInputError, match="today"):
        daily_streak([], today="2025-03-10")  # type: ignore[arg-type]


OFFSETS = st.sets(st.integers(0, 60), max_size=40)


def model(offsets: set[int], today_lost: bool) -> tuple[int, int]:
    """Walk the days one by one: the obvious definition, for comparison."""
    best = run = 0
    for offset in range(60, -1, -1):
        run = run + 1 if offset in offsets else 0
        best = max(best, run)
    current = 0
    start = 0 if 0 in offsets else 1
    if not (start == 1 and today_lost):
        while start + current in offsets:
            current += 1
    return current, best


@given(OFFSETS, st.booleans())
def test_it_agrees_with_walking_the_days(offsets: set[int], today_lost: bool) -> None:
    today_lost = today_lost and 0 not in offsets
    got = daily_streak(days_before(*offsets), today=TODAY, today_lost=today_lost)
    assert (got.current, got.best) == model(offsets, today_lost)
    assert got.last_won == (TODAY - min(offsets) * DAY if offsets else None)


@given(OFFSETS, st.booleans())
def test_current_never_exceeds_best_nor_best_the_days_won(offsets: set[int],
                                                          lost: bool) -> None:
    got = daily_streak(days_before(*offsets), today=TODAY, today_lost=lost and 0 not in offsets)
    assert 0 <= got.current <= got.best <= len(offsets)


@given(OFFSETS, st.integers(-10_000, 10_000))
def test_moving_every_day_together_changes_nothing(offsets: set[int], shift: int) -> None:
    here = daily_streak(days_before(*offsets), today=TODAY)
    moved = daily_streak([d + shift * DAY for d in days_before(*offsets)],
                         today=TODAY + shift * DAY)
    assert (moved.current, moved.best) == (here.current, here.best)
    assert moved.last_won == (None if here.last_won is None else here.last_won + shift * DAY)


@given(OFFSETS.filter(lambda offsets: 0 not in offsets))
def test_winning_today_adds_one_to_the_current_streak(offsets: set[int]) -> None:
    before = daily_streak(days_before(*offsets), today=TODAY)
    after = daily_streak(days_before(*offsets, 0), today=TODAY)
    assert after.current == before.current + 1
    assert after.best == max(before.best, after.current)


@given(OFFSETS)
def test_a_day_passing_without_a_win_breaks_only_an_old_streak(offsets: set[int]) -> None:
    won = days_before(*offsets)
    now = daily_streak(won, today=TODAY)
    tomorrow = daily_streak(won, today=TODAY + DAY)
    assert tomorrow.best == now.best
    assert tomorrow.current == (now.current if 0 in offsets else 0)


def test_an_assisted_win_bridges_the_streak_without_lengthening_it() -> None:
    """docs/points.md, "Fair play": a day won with hints keeps the streak, adds nothing."""
    d = date(2026, 3, 10)
    won = [d - timedelta(days=3), d - timedelta(days=2), d]
    bridged = [d - timedelta(days=1)]
    assert daily_streak(won, today=d, bridged_days=bridged) == Streak(3, 3, d)
    assert daily_streak(won, today=d) == Streak(1, 2, d)  # without the bridge: broken
    # A streak alive through a bridge today; bridges alone are no streak.
    assert daily_streak(won[:2], today=d - timedelta(days=1), bridged_days=bridged) == \
        Streak(2, 2, d - timedelta(days=1))
    assert daily_streak([], today=d, bridged_days=[d]) == Streak(0, 0, d)
    # A day both won and bridged counts once, as won.
    assert daily_streak([d], today=d, bridged_days=[d]) == Streak(1, 1, d)
