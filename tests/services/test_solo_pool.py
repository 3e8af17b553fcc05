"""The solo deal pool in the database: filled write-through in the background, claimed
once, kept across a restart (app/services/solo_pool.py)."""

import asyncio

import httpx
from fastapi import FastAPI
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.pool_models import SoloPoolDeal
from app.rewards.solo import SoloOptions, solo_start
from app.services import solo_pool
from app.services.solo_pool import SoloPool
from tests.support.api import signup


async def ready(sessions: async_sessionmaker[AsyncSession]) -> dict[int, int]:
    async with sessions() as session:
        return await solo_pool.ready_counts(session=session)


async def test_the_pool_fills_the_table_and_a_claim_takes_each_deal_once(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    pool = SoloPool(sessions=session_factory, sizes={1: 3, 2: 0}, processes=False)
    assert pool.sizes == {1: 3}
    pool.start()
    try:
        await asyncio.wait_for(pool.filled(), 60)
    finally:
        await pool.stop()
    assert await ready(session_factory) == {1: 3}
    taken = []
    async with session_factory() as session:
        while (found := await solo_pool.claim(session=session, suits=1)) is not None:
            taken.append(found)
        assert await solo_pool.claim(session=session, suits=2) is None
    assert len(taken) == 3 and len({t.number for t in taken}) == 3
    for found in taken:  # the row is the mapping's answer: the same cards as solving it
        options = SoloOptions(1, relaxed=True)
        assert solo_pool.start_from(found, options) == solo_start(found.number, options)
    assert await ready(session_factory) == {}


async def test_what_is_ready_survives_a_restart_and_today_s_daily_is_avoided(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    async with session_factory() as session:
        session.add_all([SoloPoolDeal(suits=4, number=n, source=n, difficulty="hard")
                         for n in (11, 12)])
        await session.commit()
    # A new process: nothing to solve, the table is full already.
    pool = SoloPool(sessions=session_factory, sizes={4: 2}, processes=False)
    pool.start()
    try:
        await asyncio.wait_for(pool.filled(), 5)
    finally:
        await pool.stop()
    async with session_factory() as session:
        found = await solo_pool.claim(session=session, suits=4, avoid=11)
        assert found is not None and found.number == 12
        left = await session.scalar(select(func.count()).select_from(SoloPoolDeal))
    assert left == 1


async def test_a_random_solo_start_takes_a_pooled_deal(
    client: httpx.AsyncClient, app: FastAPI,
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    start = solo_start(424_242, SoloOptions(4))  # its solvable deal, solved once here
    async with session_factory() as session:
        session.add(SoloPoolDeal(suits=4, number=424_242, source=start.source,
                                 difficulty=start.difficulty))
        await session.commit()
    ann = await signup(client, "Ann")
    response = await client.post("/api/solo/games", headers=ann.auth,
                                 json={"options": {"suits": 4}})
    assert response.status_code == 201, response.text
    game = response.json()["game"]
    assert (game["number"], game["difficulty"]) == (424_242, start.difficulty)
    assert await ready(session_factory) == {}
    # Not "solvable only": the generator's deal of a random number, never the pool's.
    async with session_factory() as session:
        session.add(SoloPoolDeal(suits=4, number=7, source=start.source, difficulty="hard"))
        await session.commit()
    response = await client.post("/api/solo/games", headers=ann.auth,
                                 json={"options": {"suits": 4, "solvable_only": False}})
    assert response.status_code == 201
    assert await ready(session_factory) == {4: 1}
