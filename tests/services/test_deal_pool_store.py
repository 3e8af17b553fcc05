"""The deal pool across a restart: what a stopping process held is claimed by the next
one, each deal once, and a restarted app has its slow bins ready at once."""

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.games import DealChoice
from app.db.pool_models import PooledDeal
from app.main import create_app
from app.runtime import solver_worker
from app.services import deal_pool, deal_pool_store
from app.services.deal_pool import SOLVABLE, Bin
from tests.support.api import make_settings
from tests.support.database import sqlite_url, upgrade

HARD4: Bin = (4, "hard")
ONE: Bin = (1, SOLVABLE)


def choice(number: int, difficulty: str = "hard") -> DealChoice:
    return DealChoice(deal_number=number, generator_version=1, difficulty=difficulty,
                      play_number=1_000_000 + number, play_solvable_only=False)


async def rows(session: AsyncSession) -> int:
    return int(await session.scalar(select(func.count()).select_from(PooledDeal)) or 0)


async def test_saved_deals_are_claimed_oldest_first_up_to_the_size_and_once(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    async with session_factory() as session:
        written = await deal_pool_store.save_ready(session=session, ready=[
            (HARD4, choice(1)), (HARD4, choice(2)), (HARD4, choice(3)),
            (ONE, choice(7, "easy")),
            (ONE, DealChoice(deal_number=None, generator_version=None,
                             layout={"columns": []})),  # a layout: never a pool's, not kept
        ])
        assert written == 4
    async with session_factory() as session:
        claimed = await deal_pool_store.claim_saved(session=session,
                                                    sizes={HARD4: 2, (2, "easy"): 3})
    assert claimed == [(HARD4, choice(1)), (HARD4, choice(2))]  # every field back as it was
    async with session_factory() as session:
        assert await rows(session) == 2  # the third hard one and the 1-suit one stay
        again = await deal_pool_store.claim_saved(session=session, sizes={HARD4: 5, ONE: 5})
    assert again == [(HARD4, choice(3)), (ONE, choice(7, "easy"))]
    async with session_factory() as session:
        assert await rows(session) == 0
        assert await deal_pool_store.claim_saved(session=session, sizes={HARD4: 5}) == []


async def test_two_processes_claiming_at_once_share_the_deals_without_a_double(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    async with session_factory() as session:
        await deal_pool_store.save_ready(session=session,
                                         ready=[(HARD4, choice(n)) for n in range(1, 7)])

    async def claim() -> list[tuple[Bin, DealChoice]]:
        async with session_factory() as session:
            return await deal_pool_store.claim_saved(session=session, sizes={HARD4: 4})

    first, second = await asyncio.gather(claim(), claim())
    numbers = [c.deal_number for _, c in first + second]
    assert len(numbers) == len(set(numbers)) == 6  # all six, none twice


@pytest.fixture
def no_solver_children() -> None:
    solver_worker.shutdown(wait=True)


@pytest.mark.usefixtures("no_solver_children")
async def test_a_restarted_app_starts_with_the_deals_its_last_stop_held(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path / "pool.db")
    await asyncio.to_thread(upgrade, database)
    # A 4-suit hard bin takes the solver minutes to fill: here it is filled by hand.
    settings = make_settings(database, deal_pool_size=0, deal_pool_rated_size=2,
                             deal_pool_worker="thread")
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        pool = deal_pool.installed()
        assert pool is not None and pool.ready(HARD4) == 0
        assert pool.offer(HARD4, choice(11)) and pool.offer(HARD4, choice(12))
    await app.state.db_engine.dispose()

    again = create_app(settings)
    async with again.router.lifespan_context(again):
        pool = deal_pool.installed()
        assert pool is not None
        assert pool.ready(HARD4) == 2  # at once: no wait for the solver
        assert pool.take(HARD4) == choice(11)  # oldest first
    await again.state.db_engine.dispose()
