"""Deal numbers: picked 1–999,999, duels' 1,000,000 to 2**48 − 1 (disjoint), a solo game
accepts both, refused outside with a specific error."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.deal import DealNumberError
from app.engine.deal_numbers import (
    DEAL_NUMBER_MAX,
    DEAL_NUMBER_MIN,
    DUEL_NUMBER_MAX,
    DUEL_NUMBER_MIN,
    PLAYABLE_NUMBER_MAX,
    DealNumberRangeError,
    check_deal_number,
    random_deal_number,
    random_duel_number,
)


def test_the_ranges() -> None:
    assert (DEAL_NUMBER_MIN, DEAL_NUMBER_MAX) == (1, 999_999)
    assert (DUEL_NUMBER_MIN, DUEL_NUMBER_MAX) == (1_000_000, 281_474_976_710_655)
    assert PLAYABLE_NUMBER_MAX == DUEL_NUMBER_MAX == 2**48 - 1


@given(st.integers(DEAL_NUMBER_MIN, DEAL_NUMBER_MAX) | st.integers(DUEL_NUMBER_MIN,
                                                                   DUEL_NUMBER_MAX))
def test_picked_and_duel_numbers_are_accepted(number: int) -> None:
    assert check_deal_number(number) == number


@given(st.integers(max_value=0) | st.integers(min_value=PLAYABLE_NUMBER_MAX + 1))
def test_numbers_outside_the_range_raise_the_range_error(number: int) -> None:
    with pytest.raises(DealNumberRangeError, match="281,474,976,710,655"):
        check_deal_number(number)


@pytest.mark.parametrize("value", [True, 12.0, "12", None])
def test_other_values_are_not_deal_numbers(value: object) -> None:
    with pytest.raises(DealNumberError, match="whole number") as caught:
        check_deal_number(value)
    assert not isinstance(caught.value, DealNumberRangeError)


def test_the_range_error_is_a_deal_number_error_and_a_value_error() -> None:
    assert issubclass(DealNumberRangeError, DealNumberError)
    assert issubclass(DealNumberRangeError, ValueError)


def test_random_numbers_cover_both_ends_of_the_range() -> None:
    assert random_deal_number(lambda n: 0) == 1
    assert random_deal_number(lambda n: n - 1) == 999_999
    chooser = random.Random(7)
    drawn = [random_deal_number(chooser.randrange) for _ in range(1000)]
    assert all(DEAL_NUMBER_MIN <= number <= DEAL_NUMBER_MAX for number in drawn)
    assert len(set(drawn)) > 990


def test_a_random_number_is_checked_even_from_a_bad_source() -> None:
    with pytest.raises(DealNumberRangeError, match="999,999"):
        random_deal_number(lambda n: n)
    with pytest.raises(DealNumberRangeError, match="1,000,000"):
        random_duel_number(lambda n: -1)


def test_a_duel_number_is_never_one_a_player_picks() -> None:
    """The security property: no duel deals from the 999,999 numbers one can deal ahead."""
    assert random_duel_number(lambda n: 0) == 1_000_000
    assert random_duel_number(lambda n: n - 1) == 2**48 - 1
    chooser = random.Random(13)
    drawn = [random_duel_number(chooser.randrange) for _ in range(10_000)]
    assert min(drawn) > DEAL_NUMBER_MAX and max(drawn) <= DUEL_NUMBER_MAX
    assert len(set(drawn)) == len(drawn)
    small = random.Random(5)  # a source drawing only small offsets: still past 999,999
    assert all(random_duel_number(lambda n: small.randrange(1000)) >= DUEL_NUMBER_MIN
               for _ in range(1000))


def test_a_duel_number_is_drawn_from_the_whole_range() -> None:
    asked: list[int] = []

    def below(n: int) -> int:
        asked.append(n)
        return n // 2

    assert random_duel_number(below) == DUEL_NUMBER_MIN + (2**48 - 1_000_000) // 2
    assert asked == [2**48 - 1_000_000]


def test_by_default_numbers_come_from_the_system_and_vary() -> None:
    assert len({random_deal_number() for _ in range(20)}) > 1
    duels = {random_duel_number() for _ in range(20)}
    assert len(duels) == 20 and min(duels) >= DUEL_NUMBER_MIN
