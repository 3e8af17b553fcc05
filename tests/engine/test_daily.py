"""The daily deal is pinned forever: golden numbers and cards for a handful of dates."""

import hashlib
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.daily import (
    DAILY_VERSION,
    DailyDateError,
    daily_deal,
    daily_deal_number,
    daily_rules,
    daily_start,
    utc_day,
)
from app.engine.deal import deal
from app.engine.deal_numbers import DEAL_NUMBER_MAX, DEAL_NUMBER_MIN
from app.engine.game import replay
from app.engine.layout import state_to_layout
from app.engine.rules import preset
from app.engine.solver.solvable import solvable_deal

# day: (deal number, attempt of the solvable mapping, generator deal, column tops, stock[:5])
GOLDEN = {
    date(2000, 1, 1): (333494, 0, 333494, "Js 3s 5s Ah 3h 5h Js Qh 5s As", "9s 9h Qh 8h 7h"),
    date(2024, 2, 29): (24559, 0, 24559, "9s 6h 8h 8s 7h 7s Js 6s Js 5s", "6s 3h 4s Th Qh"),
    date(2025, 1, 1): (399074, 0, 399074, "3s 8s Ah 4h 7h Ah 6h 8s 6h 7h", "6h 7s As 4h 8s"),
    date(2025, 1, 13): (919016, 1, 222203691151240, "Ah 2s 3s Jh Ks 7h 4h 7h 3h Th",
                        "8h 6s 2h Qh 6h"),
    date(2099, 12, 31): (22961, 0, 22961, "7h Ts 8h 4h 9h Kh 3s Jh Ks 5h", "2s 9s Ah 3s 7h"),
}


@pytest.mark.parametrize("day", list(GOLDEN), ids=str)
def test_golden_daily_deals(day: date) -> None:
    number, attempt, source, tops, stock = GOLDEN[day]
    assert daily_deal_number(day) == number
    found = daily_deal(day)
    assert (found.number, found.suits, found.attempt, found.source) == (number, 2, attempt, source)
    layout = state_to_layout(daily_start(day))
    assert " ".join(column["up"][0] for column in layout["tableau"]) == tops
    assert " ".join(layout["stock"][:5]) == stock
    assert layout == state_to_layout(deal(source, preset("classic", 2)))


def test_the_number_is_the_documented_hash_of_the_date() -> None:
    assert DAILY_VERSION == 1
    digest = hashlib.sha256(b"spider-duel/daily/v1/2025-03-01").digest()
    assert daily_deal_number(date(2025, 3, 1)) == int.from_bytes(digest[:8], "big") % 999_999 + 1


def test_the_daily_deal_is_two_suits_classic_and_its_line_wins() -> None:
    day = date(2025, 1, 13)
    assert daily_rules() == preset("classic", 2)
    assert replay(daily_start(day), daily_deal(day).solution).won
    assert daily_deal(day) is solvable_deal(daily_deal_number(day), 2)


@given(st.dates())
def test_every_day_has_a_deal_number_a_player_may_pick(day: date) -> None:
    assert DEAL_NUMBER_MIN <= daily_deal_number(day) <= DEAL_NUMBER_MAX


def test_consecutive_days_have_different_deals() -> None:
    start = date(2025, 1, 1)
    numbers = {daily_deal_number(start + timedelta(days=i)) for i in range(366)}
    assert len(numbers) == 366


def test_the_day_is_the_utc_day() -> None:
    paris_morning = datetime(2025, 3, 1, 0, 30, tzinfo=timezone(timedelta(hours=1)))
    assert utc_day(paris_morning) == date(2025, 2, 28)
    assert utc_day(datetime(2025, 3, 1, 23, 59, 59, tzinfo=UTC)) == date(2025, 3, 1)


def test_naive_moments_and_datetimes_are_refused() -> None:
    with pytest.raises(DailyDateError, match="time zone"):
        utc_day(datetime(2025, 3, 1, 12))
    with pytest.raises(DailyDateError, match="calendar date"):
        daily_deal_number(datetime(2025, 3, 1, tzinfo=UTC))
    with pytest.raises(DailyDateError, match="calendar date"):
        daily_deal_number("2025-03-01")  # type: ignore[arg-type]
