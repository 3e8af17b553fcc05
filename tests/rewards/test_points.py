"""Points for a solo win: docs/points.md's worked examples, and the formula's invariants."""

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rewards.points import (
    PointsInputError,
    max_points,
    options_multiplier,
    points_breakdown,
    rescue_cost,
    win_points,
)
from app.rewards.solo import SoloOptions

DOC = Path(__file__).resolve().parents[2] / "docs" / "points.md"

SUITS = st.sampled_from([1, 2, 4])
OPTIONS = st.builds(SoloOptions, SUITS, st.booleans(), st.booleans())
ELAPSED = st.integers(0, 3 * 3_600_000)
ACTIONS = st.integers(0, 3_000)
RESCUES = st.integers(0, 12)


def worked_examples() -> list[list[str]]:
    text = DOC.read_text()
    section = text.split("## Worked examples", 1)[1]
    rows = [line for line in section.splitlines() if re.match(r"\| [124] \|", line)]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_the_documented_examples_are_all_read() -> None:
    assert len(worked_examples()) == 7


@pytest.mark.parametrize("row", worked_examples(), ids=lambda row: "-".join(row[:6]))
def test_each_worked_example_of_the_docs(row: list[str]) -> None:
    suits, solvable, relaxed, time, actions, rescues, *terms = row
    minutes, seconds = time.split(":")
    options = SoloOptions(int(suits), solvable == "yes", relaxed == "yes")
    got = points_breakdown(
        options=options,
        elapsed_ms=(int(minutes) * 60 + int(seconds)) * 1000,
        actions=int(actions),
        rescues=int(rescues),
    )
    base, speed, economy, multiplier, rescue_cost, total = terms
    assert (got.base, got.speed, got.economy) == (int(base), int(speed), int(economy))
    assert got.multiplier == Fraction(multiplier)
    assert (got.rescue_cost, got.total) == (int(rescue_cost), int(total))


def test_the_multipliers_of_the_cetinsgame_page() -> None:
    assert options_multiplier(SoloOptions(2)) == 1
    assert options_multiplier(SoloOptions(2, solvable_only=False)) == Fraction(6, 5)
    assert options_multiplier(SoloOptions(2, relaxed=True)) == Fraction(4, 5)
    assert options_multiplier(SoloOptions(2, False, True)) == Fraction(24, 25)


def test_a_rescue_costs_a_quarter_of_the_base() -> None:
    assert [rescue_cost(SoloOptions(s)) for s in (1, 2, 4)] == [250, 500, 1000]
    assert rescue_cost(SoloOptions(2, False, True)) == 500  # the options do not change it


def test_the_breakdown_as_json() -> None:
    got = points_breakdown(options=SoloOptions(4, solvable_only=False), elapsed_ms=2_880_000,
                           actions=640, rescues=1)
    assert got.to_json() == {"base": 4000, "speed": 800, "economy": 1800, "multiplier": "6/5",
                             "rescue_cost": 1000, "floor": 400, "total": 6920}
    assert points_breakdown(options=SoloOptions(1), elapsed_ms=0,
                            actions=0).to_json()["multiplier"] == "1"


def test_the_bounds_per_suit_count() -> None:
    assert [max_points(SoloOptions(s, solvable_only=False)) for s in (1, 2, 4)] == [
        3600, 7200, 14400,
    ]
    slowest = [win_points(options=SoloOptions(s, relaxed=True), elapsed_ms=10**9,
                          actions=10**6, rescues=100) for s in (1, 2, 4)]
    assert slowest == [100, 200, 400]


@given(OPTIONS, ELAPSED, ELAPSED, ACTIONS, RESCUES)
def test_faster_never_pays_less(options: SoloOptions, a: int, b: int, actions: int,
                                rescues: int) -> None:
    fast, slow = sorted((a, b))
    assert win_points(options=options, elapsed_ms=fast, actions=actions, rescues=rescues) >= (
        win_points(options=options, elapsed_ms=slow, actions=actions, rescues=rescues)
    )


@given(OPTIONS, ELAPSED, ACTIONS, ACTIONS, RESCUES)
def test_fewer_actions_never_pay_less(options: SoloOptions, elapsed: int, a: int, b: int,
                                      rescues: int) -> None:
    few, many = sorted((a, b))
    assert win_points(options=options, elapsed_ms=elapsed, actions=few, rescues=rescues) >= (
        win_points(options=options, elapsed_ms=elapsed, actions=many, rescues=rescues)
    )


@given(OPTIONS, ELAPSED, ACTIONS, RESCUES)
def test_a_rescue_never_pays_more(options: SoloOptions, elapsed: int, actions: int,
                                  rescues: int) -> None:
    assert win_points(options=options, elapsed_ms=elapsed, actions=actions, rescues=rescues) >= (
        win_points(options=options, elapsed_ms=elapsed, actions=actions, rescues=rescues + 1)
    )


@given(st.booleans(), st.booleans(), ELAPSED, ACTIONS, RESCUES)
def test_more_suits_never_pay_less(solvable: bool, relaxed: bool, elapsed: int, actions: int,
                                   rescues: int) -> None:
    points = [
        win_points(options=SoloOptions(suits, solvable, relaxed), elapsed_ms=elapsed,
                   actions=actions, rescues=rescues)
        for suits in (1, 2, 4)
    ]
    assert points == sorted(points)


@given(SUITS, ELAPSED, ACTIONS, RESCUES)
def test_random_deals_pay_more_and_the_relaxed_rule_less(suits: int, elapsed: int,
                                                         actions: int, rescues: int) -> None:
    def points(solvable: bool, relaxed: bool) -> int:
        return win_points(options=SoloOptions(suits, solvable, relaxed), elapsed_ms=elapsed,
                          actions=actions, rescues=rescues)

    assert points(False, False) >= points(True, False) >= points(True, True)
    assert points(False, False) >= points(False, True) >= points(True, True)


@given(OPTIONS, ELAPSED, ACTIONS, RESCUES)
def test_points_are_whole_and_bounded(options: SoloOptions, elapsed: int, actions: int,
                                      rescues: int) -> None:
    got = points_breakdown(options=options, elapsed_ms=elapsed, actions=actions,
                           rescues=rescues)
    assert type(got.total) is int
    assert got.base // 10 == got.floor <= got.total <= max_points(options)
    assert max_points(options) <= Fraction(36, 10) * got.base
    assert 0 <= got.speed <= got.base and 0 <= got.economy <= got.base
    if got.total > got.floor:  # the breakdown adds up to the total
        raw = int((got.base + got.speed + got.economy) * got.multiplier)
        assert got.total == raw - got.rescue_cost


@pytest.mark.parametrize(
    "field,value",
    [("elapsed_ms", -1), ("actions", -5), ("rescues", -1), ("elapsed_ms", 1.5),
     ("actions", True), ("rescues", "1")],
)
def test_impossible_inputs_are_refused(field: str, value: object) -> None:
    inputs: dict[str, object] = {"elapsed_ms": 60_000, "actions": 200, "rescues": 0}
    inputs[field] = value
    with pytest.raises(PointsInputError, match=field):
        win_points(options=SoloOptions(1), **inputs)  # type: ignore[arg-type]
