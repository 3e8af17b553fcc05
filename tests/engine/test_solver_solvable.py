"""Deal numbers mapped to deals the solver has won: reproducible, verified, cached."""

import pytest

from app.engine.deal import deal
from app.engine.game import replay
from app.engine.rules import preset
from app.engine.solver import difficulty_of, solvable_by_default, solvable_deal, solve, start_of
from app.engine.solver.solvable import BUDGET_NODES, candidate_number

# (suits, number) → (source, attempt, nodes) as published with mapping v1 (they were
# computed before the search was last reworked): the mapping decides which cards a deal
# number means forever, so a change to the first-win search that moves one of these
# needs a new mapping version. One easy and one long search per suit count, and a
# number whose first candidate is not won (2 suits, 22).
PUBLISHED = {
    (1, 1): (1, 0, 193),
    (1, 6): (6, 0, 11_921),
    (2, 2): (2, 0, 1_144),
    (2, 22): (125_350_108_437_526, 1, 16_398),
    (4, 2): (2, 0, 15_563),
}


@pytest.mark.parametrize(("suits", "number"), sorted(PUBLISHED))
def test_deal_numbers_map_to_the_same_cards_as_when_mapping_v1_was_published(
    suits: int, number: int
) -> None:
    found = solvable_deal(number, suits)
    assert (found.source, found.attempt, found.nodes) == PUBLISHED[(suits, number)]
    assert replay(deal(found.source, preset("classic", suits)), found.solution).won


@pytest.mark.parametrize(("suits", "number"), [(1, 1), (2, 2)])
def test_a_solvable_deal_is_rated_from_the_effort_of_a_plain_solve(
    suits: int, number: int
) -> None:
    found = solvable_deal(number, suits)
    plain = solve(deal(found.source, preset("classic", suits)), nodes=BUDGET_NODES)
    assert plain.nodes == found.nodes
    assert found.difficulty == difficulty_of(plain.nodes, suits=suits)


def test_candidate_zero_is_the_deal_itself_and_later_ones_are_fixed_hashes() -> None:
    assert candidate_number(17, 2, 0) == 17
    # golden values: changing them changes every solvable deal (a new mapping version)
    assert candidate_number(17, 2, 1) == 17042921300792
    assert candidate_number(17, 2, 2) == 152260754939485
    assert candidate_number(17, 2, 1) != candidate_number(17, 4, 1)


def test_a_solvable_deal_comes_with_a_verified_win_under_classic_rules() -> None:
    found = solvable_deal(2, 2)
    start = deal(found.source, preset("classic", 2))
    assert replay(start, found.solution).won
    assert found.source == candidate_number(2, 2, found.attempt)
    assert found.difficulty in ("easy", "medium", "hard")


def test_the_mapping_is_the_same_when_computed_again() -> None:
    first = solvable_deal(3, 1)
    solvable_deal.cache_clear()
    again = solvable_deal(3, 1)
    assert (again.source, again.attempt, again.nodes) == (first.source, first.attempt, first.nodes)
    assert solvable_deal(3, 1) is solvable_deal(3, 1)  # cached


def test_the_solvable_start_also_wins_under_duel_rules() -> None:
    rules = preset("duel", 1)
    start = start_of(4, rules, solvable_only=True)
    found = solvable_deal(4, 1)
    assert start.columns == deal(found.source, rules).columns
    assert start_of(4, rules, solvable_only=False).columns == deal(4, rules).columns


def test_solvable_only_is_the_default_for_one_and_two_suits() -> None:
    assert solvable_by_default(1) and solvable_by_default(2)
    assert not solvable_by_default(4)
