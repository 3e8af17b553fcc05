"""The deal pool: fills its bins in the background, hands each deal out once, never makes
``choose_deal`` wait, stops without leaving threads or tasks behind, and is off at size 0.
Rated bins (tables with a difficulty, 4-suit tables): tests/services/test_rated_deals.py."""

import asyncio
import itertools
import multiprocessing
import os
import threading
import time
from pathlib import Path

import pytest

from app.db.games import DealChoice
from app.engine.deal import deal
from app.engine.game import replay
from app.engine.rules import preset
from app.engine.solver.solvable import solvable_deal
from app.engine.state import RUNS_TO_WIN
from app.main import create_app
from app.runtime import solver_worker
from app.services import deal_pool, deals
from app.services.deal_pool import SOLVABLE, Bin, DealPool, PoolSizeError
from tests.support.api import make_settings
from tests.support.database import sqlite_url, upgrade
from tests.support.orphans import kill_server_under_its_child

WAIT = 30.0  # seconds: generous, the machine may be busy; only a hang fails
ONE, TWO, FOUR = (1, SOLVABLE), (2, SOLVABLE), (4, SOLVABLE)


def solvable_pool(size: int, make: deal_pool.MakeDeal, bins: tuple[Bin, ...] = (ONE, TWO),
                  ) -> DealPool:
    return DealPool(sizes=dict.fromkeys(bins, size), make=make)


def solvable_make(bin_: Bin) -> DealChoice:
    return deals.solvable_choice(bin_[0])


def counting_make() -> tuple[list[int], deal_pool.MakeDeal]:
    """A fake solver: deal numbers 1, 2, 3, … tagged with the suit count."""
    made: list[int] = []
    counter = itertools.count(1)

    def make(bin_: Bin) -> DealChoice:
        number = next(counter)
        made.append(number)
        return DealChoice(deal_number=number * 10 + bin_[0], generator_version=1,
                          difficulty="easy")

    return made, make


def pool_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("deal-pool")]


async def test_the_pool_fills_every_suit_count_then_idles() -> None:
    made, make = counting_make()
    pool = solvable_pool(3, make)
    pool.start()
    try:
        await asyncio.wait_for(pool.filled(), WAIT)
        assert (pool.ready(ONE), pool.ready(TWO), pool.ready(FOUR)) == (3, 3, 0)
        await asyncio.sleep(0.05)
        assert len(made) == 6  # full: no more solving
    finally:
        await pool.stop()


async def test_a_take_is_instant_and_the_pool_refills() -> None:
    pool = solvable_pool(2, solvable_make, (ONE,))
    pool.start()
    try:
        await asyncio.wait_for(pool.filled(), WAIT)

        def no_solver(number: int, suits: int) -> None:
            raise AssertionError("choose_deal solved although the pool had a deal ready")

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(deals, "solvable_deal", no_solver)
            choice = await deals.choose_deal(suits=1, pool=pool)
        assert pool.ready(ONE) == 1
        assert choice.deal_number is not None and choice.difficulty is not None
        # A real solvable deal: the solver wins it from the stored generator number.
        won = solvable_deal(choice.deal_number, 1)
        assert won.attempt == 0 and won.source == choice.deal_number
        end = replay(deal(choice.deal_number, preset("classic", 1)), won.solution)
        assert len(end.removed) == RUNS_TO_WIN
        await asyncio.wait_for(pool.filled(), WAIT)
        assert pool.ready(ONE) == 2
    finally:
        await pool.stop()


async def test_choose_deal_falls_back_to_the_solver_when_the_pool_is_empty() -> None:
    made, make = counting_make()
    pool = solvable_pool(2, make)  # never started: always empty
    choice = await deals.choose_deal(suits=2, pool=pool)
    assert made == [] and pool.ready(TWO) == 0
    assert choice.deal_number is not None and choice.difficulty in ("easy", "medium", "hard")
    assert solvable_deal(choice.deal_number, 2).source == choice.deal_number


async def test_opted_out_deals_skip_the_pool() -> None:
    _, make = counting_make()
    pool = solvable_pool(1, make)
    pool.start()
    try:
        await asyncio.wait_for(pool.filled(), WAIT)
        plain = await deals.choose_deal(suits=2, solvable_only=False, pool=pool)
        four = await deals.choose_deal(suits=4, solvable_only=False, pool=pool)
        assert plain.difficulty is None and four.difficulty is None
        assert (pool.ready(ONE), pool.ready(TWO)) == (1, 1)
    finally:
        await pool.stop()


async def test_no_deal_is_handed_out_twice() -> None:
    pool = solvable_pool(2, solvable_make, (ONE,))
    pool.start()
    taken: list[int | None] = []
    try:
        for _ in range(12):
            await asyncio.wait_for(pool.filled(), WAIT)
            choice = await deals.choose_deal(suits=1, pool=pool)
            taken.append(choice.deal_number)
    finally:
        await pool.stop()
    assert None not in taken and len(set(taken)) == len(taken) == 12


async def test_stop_waits_for_the_solve_in_progress_and_leaves_no_thread() -> None:
    entered, release = threading.Event(), threading.Event()

    def slow_make(bin_: Bin) -> DealChoice:
        entered.set()
        release.wait(WAIT)
        return DealChoice(deal_number=7, generator_version=1)

    pool = solvable_pool(1, slow_make)
    pool.start()
    assert await asyncio.to_thread(entered.wait, WAIT)
    stopping = asyncio.create_task(pool.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # a thread cannot be interrupted: stop waits for it
    release.set()
    await asyncio.wait_for(stopping, WAIT)
    assert pool_threads() == []
    assert pool.take(ONE) is None and pool.take(TWO) is None  # the late result was dropped


async def test_a_failing_solver_is_logged_and_retried(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(deal_pool, "RETRY_SECONDS", 0.01)
    calls = itertools.count()

    def flaky(bin_: Bin) -> DealChoice:
        if next(calls) == 0:
            raise RuntimeError("solver broke")
        return DealChoice(deal_number=next(calls), generator_version=1)

    pool = solvable_pool(1, flaky, (TWO,))
    pool.start()
    try:
        await asyncio.wait_for(pool.filled(), WAIT)
    finally:
        await pool.stop()
    assert pool.ready(TWO) == 1
    assert "could not make a deal for bin (2, 'solvable')" in caplog.text


async def test_size_zero_turns_the_pool_off() -> None:
    made, make = counting_make()
    pool = DealPool(sizes=deal_pool.bin_sizes(solvable=0, rated=0), make=make)
    pool.start()
    await asyncio.wait_for(pool.filled(), 1)  # nothing to wait for
    assert not pool.enabled and pool_threads() == []
    choice = await deals.choose_deal(suits=1, pool=pool)
    assert choice.difficulty is not None and made == []
    await pool.stop()


@pytest.mark.parametrize("size", [-1, 1.5, True])
def test_a_bad_size_is_refused(size: object) -> None:
    with pytest.raises(PoolSizeError, match="whole number"):
        DealPool(sizes={ONE: size}, make=counting_make()[1])  # type: ignore[dict-item]


@pytest.fixture
def no_solver_children() -> None:
    """The children counted are the deal pool's: the requests' solver processes, which a
    process keeps across apps (app/runtime/solver_worker.py), are stopped first."""
    solver_worker.shutdown(wait=True)


@pytest.mark.usefixtures("no_solver_children")
async def test_the_app_lifespan_starts_installs_and_stops_the_pool(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path / "pool.db")
    await asyncio.to_thread(upgrade, database)  # the rooms lifespan restores matches
    app = create_app(make_settings(database, deal_pool_size=1, deal_pool_rated_size=0,
                                   deal_pool_wait_seconds=3.5))
    async with app.router.lifespan_context(app):
        pool = deal_pool.installed()
        assert pool is not None and pool.sizes == {ONE: 1, TWO: 1}
        assert pool.wait_seconds == 3.5
        await asyncio.wait_for(pool.filled(), WAIT)
        assert (pool.ready(ONE), pool.ready(TWO)) == (1, 1)
        taken = await deals.choose_deal(suits=1)  # the installed pool
        assert pool.ready(ONE) == 0 and taken.difficulty is not None
    assert deal_pool.installed() is None and pool_threads() == []
    assert multiprocessing.active_children() == []  # the default worker: a child, gone
    await app.state.db_engine.dispose()


@pytest.mark.usefixtures("no_solver_children")
async def test_the_child_solves_at_a_lower_priority_than_the_server() -> None:
    """Deals made ahead of need never take the CPU from live play: at full priority the
    child of a worker restarted after a crash took a core of the two that the survivors
    needed for its players (bench.failover)."""
    pool = DealPool(sizes={(4, "hard"): 1}, make=deals.pooled_deal, processes=True)
    pool.start()
    try:
        while not multiprocessing.active_children():
            await asyncio.sleep(0.05)
        [child] = multiprocessing.active_children()
        assert child.pid is not None
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        expected = min(19, mine + deal_pool.BACKGROUND_NICENESS)
        deadline = time.monotonic() + WAIT  # the child lowers itself as it starts
        while os.getpriority(os.PRIO_PROCESS, child.pid) != expected:
            assert time.monotonic() < deadline, os.getpriority(os.PRIO_PROCESS, child.pid)
            await asyncio.sleep(0.05)
        assert os.getpriority(os.PRIO_PROCESS, 0) == mine  # the server's own is untouched
    finally:
        await asyncio.wait_for(pool.stop(), WAIT)


def long_solve(bin_: Bin) -> None:
    """A 4-suit deal the solver takes a minute over (run in a spawned child: importable)."""
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        pass


KILLED_SERVER = """
import asyncio, multiprocessing, os, sys, time
sys.path.insert(0, os.getcwd())  # the checkout, for tests.services (its child inherits it)
from app.services import deal_pool
from tests.services.test_deal_pool import long_solve

async def main():
    pool = deal_pool.DealPool(sizes={(4, "hard"): 1}, make=long_solve, processes=True)
    pool.start()
    while not multiprocessing.active_children():
        await asyncio.sleep(0.05)
    print(multiprocessing.active_children()[0].pid, flush=True)
    await asyncio.sleep(60)  # until killed

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_the_child_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    """A SIGKILLed worker cannot stop its pool's child: it notices and ends, mid-solve,
    quietly (it went on solving for its dead server, a core taken from the others)."""
    script = tmp_path / "server.py"
    script.write_text(KILLED_SERVER)
    # 3 s: solving by now (spawned, imported, given its first bin)
    orphaned = kill_server_under_its_child(script, settle_s=3, wait_s=WAIT)
    assert orphaned.gone
    said = orphaned.stderr
    assert "Traceback" not in said and "leaked semaphore" not in said, said


async def test_a_process_worker_fills_and_its_child_dies_at_stop() -> None:
    # The real make, in a spawned child: the event loop's thread never runs the solver.
    # The bin missing the most is filled first: the two 1-suit deals, then a 4-suit hard
    # one, still being solved at the stop (with 3 of those wanted, two were solved first).
    pool = DealPool(sizes={ONE: 2, (4, "hard"): 1}, make=deals.pooled_deal, processes=True)
    pool.start()
    try:
        while pool.ready(ONE) < 2:  # 1-suit deals are quick; 4-suit hard ones are not
            await asyncio.sleep(0.1)
        choice = pool.take(ONE)
        assert choice is not None and choice.difficulty is not None
        assert solvable_deal(choice.play_number or 0, 1).source == choice.deal_number
        assert pool_threads() == []  # no solving thread in this process
        assert len(multiprocessing.active_children()) == 1
    finally:
        started = time.monotonic()
        await asyncio.wait_for(pool.stop(), WAIT)  # mid-way through a 4-suit solve, likely
    assert time.monotonic() - started < 5.0
    assert multiprocessing.active_children() == []
