"""Group commit of the action log, on SQLite and the real PostgreSQL."""

import asyncio

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import games as repo
from app.db.models import DuelTable, Game, GameAction, Player
from app.rooms.group_commit import GroupCommitSqlStore
from app.rooms.store import Progress, SeqTaken, StoreError


async def games(sessions: async_sessionmaker[AsyncSession], count: int) -> list[int]:
    async with sessions() as session:
        players = [Player(name=f"P{i}xx", name_key=f"p{i}xx") for i in range(count * 2)]
        session.add_all(players)
        await session.flush()
        ids = []
        for i in range(count):
            table = DuelTable(owner_id=players[2 * i].id, preset="duel", suits=1,
                              time_limit_seconds=600, level="any", is_public=True, rated=False,
                              status="full")
            session.add(table)
            await session.flush()
            match = await repo.create_match(
                session, table=table, player_ids=[players[2 * i].id, players[2 * i + 1].id],
                choice=repo.DealChoice(7, 1))
            ids += [g.id for g in await repo.games_of_match(session, match_id=match.id)]
        await session.commit()
        return ids


async def test_concurrent_appends_of_many_games_are_all_committed(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    store = GroupCommitSqlStore(session_factory)
    ids = await games(session_factory, 10)

    async def play(game_id: int) -> None:
        for seq in range(1, 6):
            await store.append_action(game_id, seq, {"op": "deal"}, 1_000_000.0 + seq,
                                      Progress(score=-seq, actions=seq, time_used_ms=seq * 10))

    await asyncio.gather(*(play(g) for g in ids))
    async with session_factory() as session:
        count = await session.scalar(select(func.count()).select_from(GameAction))
        rows = (await session.scalars(select(Game).where(Game.id.in_(ids)))).all()
    assert count == 5 * len(ids)
    assert all((g.score, g.actions_count, g.time_used_ms) == (-5, 5, 50) for g in rows)


async def test_a_seq_conflict_fails_only_the_loser_of_the_batch(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    store = GroupCommitSqlStore(session_factory)
    first, second = (await games(session_factory, 1))[:2]
    await store.append_action(first, 1, {"op": "deal"}, 1.0, Progress(-1, 1, 0))
    # One batch: a fresh append for `second`, and a repeat of `first`'s seq 1.
    results = await asyncio.gather(
        store.append_action(second, 1, {"op": "deal"}, 2.0, Progress(-1, 1, 0)),
        store.append_action(first, 1, {"op": "undo"}, 2.0, Progress(-2, 2, 0)),
        return_exceptions=True,
    )
    assert results[0] is None
    assert isinstance(results[1], SeqTaken)
    async with session_factory() as session:
        logged = (await session.execute(
            select(GameAction.game_id, GameAction.seq, GameAction.action)
            .order_by(GameAction.game_id))).all()
    assert [tuple(r) for r in logged] == [(first, 1, {"op": "deal"}), (second, 1, {"op": "deal"})]


async def test_a_database_failure_is_a_store_error_for_each_waiting_append(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    store = GroupCommitSqlStore(session_factory)
    # A missing game breaks the foreign key: the caller hears of it, never of success.
    with pytest.raises(StoreError):
        await store.append_action(999_999, 1, {"op": "deal"}, 1.0, Progress(-1, 1, 0))
