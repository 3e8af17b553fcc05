"""Rated duel deals (tables with a difficulty, 4-suit tables): drawn, solved with the suit
count's budget, rated by the solver's effort; pooled per (suits, difficulty) bin, taken
without solving at a match start, searched on demand when the bin is empty."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Iterator
from functools import partial

import pytest

from app.db.games import DealChoice
from app.engine.deal import deal
from app.engine.rules import preset
from app.engine.solver import difficulty_of, solve
from app.services import deal_pool, deals
from app.services.deal_pool import DIFFICULTIES, Bin, DealPool
from app.services.deals import DUEL_SOLVE_NODES, choose_deal, rated_search

WAIT = 30.0


def solved_as(choice: DealChoice, suits: int) -> str:
    """The difficulty the solver gives the stored generator deal (re-solved here)."""
    assert choice.deal_number is not None
    found = solve(deal(choice.deal_number, preset("classic", suits)), nodes=DUEL_SOLVE_NODES[suits])
    assert found.solved
    return difficulty_of(found.nodes, suits=suits)


def cycling_draws(levels: list[str | None]) -> tuple[list[int], deal_pool.MakeDeal]:
    """A fake rated draw: numbers 1, 2, … whose difficulties cycle through ``levels``
    (``None``: a deal the solver did not win)."""
    drawn: list[int] = []
    numbers: Iterator[int] = itertools.count(1)
    cycle = itertools.cycle(levels)

    def make(bin_: Bin) -> DealChoice | None:
        number, level = next(numbers), next(cycle)
        drawn.append(number)
        if level is None:
            return None
        return DealChoice(deal_number=number, generator_version=1, difficulty=level)

    return drawn, make


def rated_pool(size: int, make: deal_pool.MakeDeal, suits: int = 4) -> DealPool:
    return DealPool(sizes={(suits, level): size for level in DIFFICULTIES}, make=make)


def no_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the match start solved although its bin had a deal ready")

    monkeypatch.setattr(deals, "solve", refuse)
    monkeypatch.setattr(deals, "solvable_deal", refuse)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_a_rated_deal_has_the_asked_difficulty(difficulty: str) -> None:
    found = rated_search(1, difficulty, wait_seconds=60)
    assert found.choice is not None
    assert found.choice.difficulty == difficulty and found.choice.deal_number is not None
    assert solved_as(found.choice, 1) == difficulty
    assert all(other.difficulty != difficulty for other in found.others)


def test_each_draw_is_capped_at_the_time_left_and_the_search_gives_up_at_the_deadline(
) -> None:
    ticks = iter([0.0, 0.0, 4.0, 9.5, 12.0])  # the deadline (10 s) passes during the 3rd
    caps: list[float | None] = []
    _, make = cycling_draws(["easy", None, "medium"])

    def draw(suits: int, seconds: float | None = None) -> DealChoice | None:
        caps.append(seconds)
        return make((suits, "?"))

    found = rated_search(2, "hard", wait_seconds=10, clock=lambda: next(ticks), draw=draw)
    assert caps == [10.0, 6.0, 0.5]
    assert found.choice is None and [o.difficulty for o in found.others] == ["easy", "medium"]


def test_a_real_capped_draw_gives_up_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deals, "random_duel_number", lambda: 1168723366)  # ~12 s to solve
    started = time.monotonic()
    assert deals.rated_draw(4, seconds=0.2) is None
    assert time.monotonic() - started < 5.0


def test_a_search_skips_unsolved_draws_and_keeps_the_others_it_solved() -> None:
    _, make = cycling_draws([None, "easy", None, "medium", "hard", "easy"])
    found = rated_search(4, "hard", wait_seconds=60,
                         draw=lambda suits, seconds=None: make((suits, "hard")))
    assert found.choice == DealChoice(deal_number=5, generator_version=1, difficulty="hard")
    assert [o.deal_number for o in found.others] == [2, 4]


async def test_a_match_start_takes_a_pooled_deal_of_its_difficulty_without_solving(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sizes = {(suits, level): 1 for suits in (1, 2) for level in DIFFICULTIES}
    pool = DealPool(sizes=sizes, make=deals.pooled_deal)  # real draws (4 suits: too slow)
    pool.start()
    try:
        await asyncio.wait_for(pool.filled(), 120)
    finally:
        await pool.stop()
    with monkeypatch.context() as patch:
        no_solving(patch)
        medium = await choose_deal(suits=2, difficulty="medium", pool=pool)
        hard = await choose_deal(suits=1, difficulty="hard", pool=pool)
    assert pool.ready((2, "medium")) == 0 and pool.ready((1, "hard")) == 0
    assert (medium.difficulty, hard.difficulty) == ("medium", "hard")
    assert solved_as(medium, 2) == "medium" and solved_as(hard, 1) == "hard"


async def test_the_refill_tops_every_bin_up_and_drops_what_does_not_fit() -> None:
    drawn, make = cycling_draws(["easy", "easy", None, "medium", "hard"])
    pool = rated_pool(2, make)
    pool.start()
    try:
        await asyncio.wait_for(pool.filled(), WAIT)
        assert [pool.ready((4, level)) for level in DIFFICULTIES] == [2, 2, 2]
        taken = pool.take((4, "hard"))
        assert taken is not None and taken.difficulty == "hard"
        assert pool.ready((4, "hard")) == 1
        await asyncio.wait_for(pool.filled(), WAIT)  # topped up again
        assert [pool.ready((4, level)) for level in DIFFICULTIES] == [2, 2, 2]
    finally:
        await pool.stop()
    kept = {c.deal_number for level in DIFFICULTIES for c in pool._ready[(4, level)]}
    assert len(drawn) > len(kept) + 1  # easy ones past the bin's size were dropped


async def test_any_takes_from_the_fullest_bin_of_the_suit_count() -> None:
    _, make = cycling_draws(["easy", "medium", "medium"])
    pool = rated_pool(3, make)  # never started: filled by hand
    for number, level in [(1, "easy"), (2, "medium"), (3, "medium"), (4, "hard")]:
        assert pool.offer((4, level), DealChoice(number, 1, difficulty=level))
    choice = await choose_deal(suits=4, pool=pool)  # 4 suits, any: a rated deal too
    assert choice.deal_number == 2 and pool.ready((4, "medium")) == 1


async def test_an_empty_bin_searches_on_demand_and_pools_the_other_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, make = cycling_draws(["easy", None, "medium", "hard"])
    monkeypatch.setattr(deals, "rated_draw", lambda suits, seconds=None: make((suits, "?")))
    pool = rated_pool(1, make)  # never started: every bin empty
    choice = await choose_deal(suits=4, difficulty="hard", pool=pool)
    assert choice.deal_number == 4 and choice.difficulty == "hard"
    assert pool.ready((4, "easy")) == 1 and pool.ready((4, "medium")) == 1


async def test_an_empty_bin_past_the_wait_starts_with_any_solved_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, make = cycling_draws([None, "easy"])  # never hard
    monkeypatch.setattr(deals, "rated_draw", lambda suits, seconds=None: make((suits, "?")))
    pool = DealPool(sizes={}, make=make, wait_seconds=0.0)  # off, but carries the wait
    choice = await asyncio.wait_for(choose_deal(suits=4, difficulty="hard", pool=pool), WAIT)
    assert choice.difficulty == "easy"  # stored as found: the match starts anyway


async def test_past_the_wait_a_deal_found_on_the_way_then_a_pooled_one_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, make = cycling_draws(["easy"])  # solved, never hard
    monkeypatch.setattr(deals, "rated_draw", lambda suits, seconds=None: make((suits, "?")))
    pool = rated_pool(2, make)
    choice = await choose_deal(suits=4, difficulty="hard", pool=pool, wait_seconds=0.2)
    assert choice.difficulty == "easy"  # found on the way (the others went to their bin)
    assert pool.ready((4, "easy")) == 2

    monkeypatch.setattr(deals, "rated_draw", lambda suits, seconds=None: None)  # never won
    later = await choose_deal(suits=4, difficulty="hard", pool=pool, wait_seconds=0.2)
    assert later.difficulty == "easy" and pool.ready((4, "easy")) == 1  # from the pool


async def test_without_a_pool_a_difficulty_or_four_suits_still_get_a_solved_deal() -> None:
    choice = await choose_deal(suits=1, difficulty="medium")
    assert choice.difficulty == "medium" and solved_as(choice, 1) == "medium"
    plain = await choose_deal(suits=4, solvable_only=False)  # opted out: random
    assert plain.difficulty is None


async def test_stop_makes_a_long_rated_solve_give_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deals, "random_duel_number", lambda: 1168723366)  # ~12 s to solve
    cancel = threading.Event()
    pool = DealPool(sizes={(4, "hard"): 1}, make=partial(deals.pooled_deal, cancelled=cancel),
                    cancel=cancel)
    pool.start()
    await asyncio.sleep(0.5)  # the draw is under way
    started = time.monotonic()
    await asyncio.wait_for(pool.stop(), WAIT)
    assert time.monotonic() - started < 3.0  # not the solve's ~10 s of CPU
    assert cancel.is_set() and pool.ready((4, "hard")) == 0
    assert not [t for t in threading.enumerate() if t.name.startswith("deal-pool")]
