"""Deal numbers a player may pick: 1–999,999, refused outside with a specific error."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.deal import DealNumberError
from app.engine.deal_numbers import (
    DEAL_NUMBER_MAX,
    DEAL_NUMBER_MIN,
    DealNumberRangeError,
    check_deal_number,
    random_deal_number,
)


@given(st.integers(DEAL_NUMBER_MIN, DEAL_NUMBER_MAX))
def test_every_number_of_the_range_is_accepted(number: int) -> None:
    assert check_deal_number(number) == number


@given(st.integers(max_value=0) | st.integers(min_value=DEAL_NUMBER_MAX + 1))
def test_numbers_outside_the_range_raise_the_range_error(number: int) -> None:
    with pytest.raises(DealNumberRangeError, match="999,999"):
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
    with pytest.raises(DealNumberRangeError):
        random_deal_number(lambda n: n)


def test_by_default_numbers_come_from_the_system_and_vary() -> None:
    assert len({random_deal_number() for _ in range(20)}) > 1
