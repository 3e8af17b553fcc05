"""Duel deals of a difficulty: drawn, solved with the suit count's budget, rated."""

from __future__ import annotations

import itertools

import pytest

from app.engine.deal import deal
from app.engine.rules import preset
from app.engine.solver import solve
from app.engine.solver.difficulty import difficulty_of
from app.services.deals import DUEL_SOLVE_NODES, choose_deal, rated_choice


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_a_rated_deal_has_the_asked_difficulty(difficulty: str) -> None:
    choice = rated_choice(1, difficulty, wait_seconds=60)
    assert choice.difficulty == difficulty and choice.deal_number is not None
    found = solve(deal(choice.deal_number, preset("classic", 1)), nodes=DUEL_SOLVE_NODES[1])
    assert found.solved and difficulty_of(found.nodes, suits=1) == difficulty


def test_past_the_wait_any_solved_deal_is_taken_as_found() -> None:
    ticks = itertools.count(0.0, 100.0)  # every look at the clock is past the deadline
    choice = rated_choice(2, "hard", wait_seconds=1, clock=lambda: next(ticks))
    assert choice.deal_number is not None and choice.difficulty in ("easy", "medium", "hard")
    found = solve(deal(choice.deal_number, preset("classic", 2)), nodes=DUEL_SOLVE_NODES[2])
    assert found.solved and difficulty_of(found.nodes, suits=2) == choice.difficulty


async def test_choose_deal_with_a_difficulty_gives_a_solved_deal_for_any_suit_count() -> None:
    choice = await choose_deal(suits=1, difficulty="medium")
    assert choice.difficulty == "medium"
    unrated = await choose_deal(suits=4)  # 4 suits, any: random as before
    assert unrated.difficulty is None
