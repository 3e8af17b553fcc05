"""Group commit of the action log, on SQLite and the real PostgreSQL."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import games as repo
from app.db import log_writer
from app.db.models import DuelTable, Game, GameAction, Player
from app.rooms.store import SeqTaken, StoreError, Totals
from app.services.group_commit import GroupCommitSqlStore
from tests.support.database import MigratedDatabases, sessions_on


@contextlib.asynccontextmanager
async def opened_store(
    sessions: async_sessionmaker[AsyncSession],
) -> AsyncIterator[GroupCommitSqlStore]:
    opened = GroupCommitSqlStore(sessions)
    try:
        yield opened
    finally:
        await opened.close()  # the kept connection back to the pool


@pytest.fixture
async def store(
    session_factory: async_sessionmaker[AsyncSession],
) -> AsyncIterator[GroupCommitSqlStore]:
    async with opened_store(session_factory) as opened:
        yield opened


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


def _triple(progress: Totals) -> tuple[int, int, int]:
    return progress.score, progress.actions, progress.time_used_ms


async def test_concurrent_appends_of_many_games_are_all_committed(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    ids = await games(session_factory, 10)

    async def play(game_id: int) -> None:
        for seq in range(1, 6):
            await store.append_action(game_id, seq, {"op": "deal"}, 1_000_000.0 + seq,
                                      Totals(score=-seq, actions=seq, time_used_ms=seq * 10))

    await asyncio.gather(*(play(g) for g in ids))
    async with session_factory() as session:
        count = await session.scalar(select(func.count()).select_from(GameAction))
        rows = (await session.scalars(select(Game).where(Game.id.in_(ids)))).all()
        totals = [await repo.live_totals(session, g) for g in rows]
    assert count == 5 * len(ids)
    assert totals == [Totals(-5, 5, 50)] * len(ids)


async def test_each_row_carries_its_totals_and_the_games_row_is_left_alone(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    # One statement per batch, an INSERT only: the totals go on the logged row (revision
    # 0009), read back by live_totals while the game is played; its row keeps its zeros.
    first, second = await games(session_factory, 1)
    await store.append_action(first, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 10))  # lone
    await asyncio.gather(*(  # a batch: the second and third go together
        store.append_action(game, seq, {"op": "deal"}, 2.0, Totals(-seq, seq, 20 * seq))
        for game, seq in ((first, 2), (second, 1), (first, 3))))
    async with session_factory() as session:
        logged = (await session.execute(
            select(GameAction.game_id, GameAction.seq, GameAction.score,
                   GameAction.actions_count, GameAction.time_used_ms)
            .order_by(GameAction.game_id, GameAction.seq))).all()
        rows = {g.id: g for g in await session.scalars(select(Game))}
        live = {g: await repo.live_totals(session, rows[g]) for g in (first, second)}
    assert [tuple(r) for r in logged] == [
        (first, 1, -1, 1, 10), (first, 2, -2, 2, 40), (first, 3, -3, 3, 60),
        (second, 1, -1, 1, 20)]
    assert all((g.score, g.actions_count, g.time_used_ms) == (0, 0, 0) for g in rows.values())
    assert live == {first: Totals(-3, 3, 60), second: Totals(-1, 1, 20)}


async def test_logged_rows_read_back_as_the_orm_would_have_written_them(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    # The writer encodes rows its own way (compact JSON text, seconds turned into the
    # timestamp by the database): the ORM must read back what it would have written.
    import random
    from datetime import UTC, datetime

    [game, _] = await games(session_factory, 1)
    rng = random.Random(3)
    moments = [1_764_000_000 + rng.random() * 10_000_000 for _ in range(300)]
    action = {"op": "move", "from": 3, "to": 7, "count": 2, "note": "é \" \u2028"}
    await asyncio.gather(*(
        store.append_action(game, seq, {**action, "seq": seq}, at, Totals(seq, seq, seq))
        for seq, at in enumerate(moments, start=1)
    ))
    async with session_factory() as session:
        rows = (await session.scalars(select(GameAction).order_by(GameAction.seq))).all()
    assert [row.action for row in rows] == [{**action, "seq": seq} for seq in range(1, 301)]
    assert [row.at for row in rows] == [datetime.fromtimestamp(at, UTC) for at in moments]


async def test_a_seq_conflict_fails_only_the_loser_of_the_batch(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    first, second = (await games(session_factory, 1))[:2]
    await store.append_action(first, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0))
    # One batch: a fresh append for `second`, and a repeat of `first`'s seq 1.
    results = await asyncio.gather(
        store.append_action(second, 1, {"op": "deal"}, 2.0, Totals(-1, 1, 0)),
        store.append_action(first, 1, {"op": "undo"}, 2.0, Totals(-2, 2, 0)),
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
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    # A missing game breaks the foreign key: the caller hears of it, never of success.
    with pytest.raises(StoreError):
        await store.append_action(999_999, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0))


async def test_a_batch_with_one_duplicate_commits_all_the_others(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    ids = await games(session_factory, 2)
    await store.append_action(ids[3], 1, {"op": "deal"}, 1.0, Totals(-1, 1, 10))
    # One batch: two appends of each other game (the totals of the later one win) and a
    # repeat of ids[3]'s seq 1 in the middle.
    appends = [(g, s) for g in ids[:3] for s in (1, 2)]
    appends.insert(3, (ids[3], 1))
    results = await asyncio.gather(
        *(store.append_action(g, s, {"op": "deal", "n": s}, 2.0 + s, Totals(-s, s, 100 * s))
          for g, s in appends),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["NoneType"] * 3 + ["SeqTaken"] + [
        "NoneType"] * 3
    async with session_factory() as session:
        logged = (await session.execute(
            select(GameAction.game_id, GameAction.seq, GameAction.action, GameAction.at)
            .order_by(GameAction.game_id, GameAction.seq))).all()
        totals = {g.id: _triple(await repo.live_totals(session, g))
                  for g in await session.scalars(select(Game).where(Game.id.in_(ids)))}
    assert [tuple(r[:3]) for r in logged] == sorted(
        [(g, s, {"op": "deal", "n": s}) for g, s in appends if g != ids[3]]
        + [(ids[3], 1, {"op": "deal"})])
    # Timestamps come back as the same aware UTC instants, as if the ORM had written them.
    assert {r.at.timestamp() for r in logged} == {1.0, 3.0, 4.0}
    assert all(r.at.utcoffset() is not None for r in logged)
    assert totals == {**{g: (-2, 2, 200) for g in ids[:3]}, ids[3]: (-1, 1, 10)}


async def test_a_missing_game_in_a_batch_fails_only_its_own_append(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    (game, *_) = await games(session_factory, 1)
    results = await asyncio.gather(
        store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0)),
        store.append_action(999_999, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0)),
        return_exceptions=True,
    )
    assert results[0] is None
    # A broken foreign key is no seq race: the caller must not resync as its loser.
    assert isinstance(results[1], StoreError) and not isinstance(results[1], SeqTaken)


@pytest.mark.parametrize("ticks", [1, 3])
async def test_cancelling_the_writer_settles_every_waiting_append(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore, ticks: int
) -> None:
    ids = await games(session_factory, 3)
    waiting = [asyncio.ensure_future(store.append_action(g, 1, {"op": "deal"}, 1.0,
                                                         Totals(-1, 1, 0))) for g in ids]
    for _ in range(ticks):  # 1: the writer has not started yet; 3: its batch is in flight
        await asyncio.sleep(0)
    assert store._writers
    for writer in list(store._writers):
        writer.cancel()
    results = await asyncio.wait_for(asyncio.gather(*waiting, return_exceptions=True), 5)
    assert all(isinstance(r, StoreError) for r in results)
    # The store is still usable: the next append starts a new writer and commits. (A
    # batch cancelled in flight may have committed all the same: the log says.)
    async with session_factory() as session:
        seq = 1 + len((await session.scalars(
            select(GameAction.seq).where(GameAction.game_id == ids[0]))).all())
    await store.append_action(ids[0], seq, {"op": "deal"}, 2.0, Totals(-1, 1, 0))


async def test_close_commits_what_is_queued_then_returns_the_connection(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    ids = await games(session_factory, 2)
    waiting = [asyncio.ensure_future(store.append_action(g, 1, {"op": "deal"}, 1.0,
                                                         Totals(-1, 1, 0))) for g in ids]
    await asyncio.sleep(0)
    await store.close()
    assert [w.result() for w in waiting] == [None] * len(ids)
    async with session_factory() as session:
        assert await session.scalar(select(func.count()).select_from(GameAction)) == len(ids)


async def test_the_kept_connection_is_replaced_after_it_breaks(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    (game, *_) = await games(session_factory, 1)
    await store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0))
    kept = store._idle[-1]._kept  # type: ignore[attr-defined]  # the writer used last
    # Closed under the writer's feet (SQLite: the driver's thread stops; PostgreSQL: the
    # socket is cut). The next write either notices first or fails; the one after commits.
    driver = await kept.driver()
    if hasattr(driver, "terminate"):
        driver.terminate()
    else:
        await driver.close()
    outcome = await asyncio.gather(
        store.append_action(game, 2, {"op": "deal"}, 2.0, Totals(-2, 2, 0)),
        return_exceptions=True)
    assert outcome[0] is None or isinstance(outcome[0], StoreError)
    seq = 3 if outcome[0] is None else 2
    await store.append_action(game, seq, {"op": "deal"}, 3.0, Totals(-seq, seq, 0))
    async with session_factory() as session:
        seqs = list(await session.scalars(select(GameAction.seq).order_by(GameAction.seq)))
    assert seqs == list(range(1, seq + 1))


@pytest.fixture
def pg_database_url(migrated_databases: MigratedDatabases, tmp_path: Path) -> str:
    """PostgreSQL whatever the `backend` parameter: what these tests do needs a server."""
    return migrated_databases.fresh_url("postgresql", tmp_path)


@pytest.fixture
async def pg_sessions(pg_database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    async with sessions_on(pg_database_url) as sessions:
        yield sessions


@pytest.fixture
async def pg_store(
    pg_sessions: async_sessionmaker[AsyncSession],
) -> AsyncIterator[GroupCommitSqlStore]:
    async with opened_store(pg_sessions) as opened:
        yield opened


async def _terminate_writer(sessions: async_sessionmaker[AsyncSession], waiting: bool) -> int:
    """pg_terminate_backend on the writer's connection (the only other one in this database
    that is idle, or waiting for a lock); returns how many backends it ended."""
    condition = "wait_event_type = 'Lock'" if waiting else "state = 'idle'"
    async with sessions() as session:
        ended = await session.scalar(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            f"WHERE datname = current_database() AND pid <> pg_backend_pid() AND {condition}"))
    return int(ended or 0)


async def test_postgres_writer_reconnects_after_its_backend_is_terminated(
    pg_sessions: async_sessionmaker[AsyncSession], pg_store: GroupCommitSqlStore
) -> None:
    store = pg_store
    (game, *_) = await games(pg_sessions, 1)
    await store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0))
    assert await _terminate_writer(pg_sessions, waiting=False) >= 1
    await asyncio.sleep(0.3)  # the server closes the socket; the writer sees it closed
    # No caller pays for the dead connection: the writer checks out a fresh one first.
    await store.append_action(game, 2, {"op": "deal"}, 2.0, Totals(-2, 2, 0))
    async with pg_sessions() as session:
        assert list(await session.scalars(
            select(GameAction.seq).where(GameAction.game_id == game))) == [1, 2]


async def test_postgres_writer_killed_mid_batch_fails_that_batch_and_recovers(
    pg_sessions: async_sessionmaker[AsyncSession], pg_store: GroupCommitSqlStore
) -> None:
    store = pg_store
    (game, *_) = await games(pg_sessions, 1)
    await store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0))
    async with pg_sessions() as blocker, blocker.begin():
        # Hold the game's row: the writer's statement (its foreign key's check) waits on
        # it, then is terminated.
        await blocker.execute(select(Game).where(Game.id == game).with_for_update())
        pending = asyncio.ensure_future(
            store.append_action(game, 2, {"op": "deal"}, 2.0, Totals(-2, 2, 0)))
        for _ in range(100):
            if await _terminate_writer(pg_sessions, waiting=True):
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the writer never waited for the row lock")
        with pytest.raises(StoreError):
            await asyncio.wait_for(pending, 5)
    await store.append_action(game, 2, {"op": "deal"}, 2.0, Totals(-2, 2, 0))
    async with pg_sessions() as session:
        assert list(await session.scalars(
            select(GameAction.seq).where(GameAction.game_id == game))) == [1, 2]
        row = await session.get(Game, game)
        assert row is not None and (await repo.live_totals(session, row)).actions == 2


async def test_postgres_writer_without_synchronous_commit_changes_only_its_own_session(
    pg_sessions: async_sessionmaker[AsyncSession],
) -> None:
    (game, *_) = await games(pg_sessions, 1)
    store = GroupCommitSqlStore(pg_sessions, synchronous_commit=False)
    try:
        await store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0))
        writer = await store._idle[-1]._kept.driver()  # type: ignore[attr-defined]
        assert await writer.fetchval("SHOW synchronous_commit") == "off"
        async with pg_sessions() as session:
            assert await session.scalar(text("SHOW synchronous_commit")) == "on"
            assert list(await session.scalars(select(GameAction.seq))) == [1]
    finally:
        await store.close()
    # Back in the pool as the pool gave it: every pooled connection commits durably.
    engine = pg_sessions.kw["bind"]
    async with contextlib.AsyncExitStack() as stack:
        connections = [await stack.enter_async_context(engine.connect()) for _ in range(3)]
        assert [await c.scalar(text("SHOW synchronous_commit")) for c in connections] == [
            "on"] * 3


async def test_a_caller_that_goes_away_does_not_cancel_the_batch(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    ids = await games(session_factory, 2)
    waiting = [asyncio.ensure_future(store.append_action(g, 1, {"op": "deal"}, 1.0,
                                                         Totals(-1, 1, 0))) for g in ids]
    for _ in range(3):  # the batch is in flight
        await asyncio.sleep(0)
    waiting[0].cancel()
    results = await asyncio.gather(*waiting, return_exceptions=True)
    assert isinstance(results[0], asyncio.CancelledError)
    assert results[1:] == [None] * (len(ids) - 1)
    # Its row was part of a batch: written all the same (the log, not the ack, decides),
    # once that batch, which may not be the others' (a lone first row goes at once), ends.
    await asyncio.wait_for(asyncio.gather(*store._writers), 5)
    async with session_factory() as session:
        assert await session.scalar(select(func.count()).select_from(GameAction)) == len(ids)


async def test_the_writer_commits_a_batch_and_refuses_a_taken_seq(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore,
) -> None:
    ids = await games(session_factory, 1)
    await store.append_action(ids[0], 1, {"op": "deal"}, 1.0, Totals(-1, 1, 5))
    results = await asyncio.gather(
        store.append_action(ids[0], 2, {"op": "deal"}, 2.0, Totals(-2, 2, 6)),
        store.append_action(ids[1], 1, {"op": "deal"}, 2.0, Totals(-1, 1, 7)),
        store.append_action(ids[0], 1, {"op": "undo"}, 2.0, Totals(-3, 3, 8)),
        return_exceptions=True,
    )
    assert results[:2] == [None, None] and isinstance(results[2], SeqTaken)
    async with session_factory() as session:
        rows = (await session.execute(
            select(GameAction.game_id, GameAction.seq).order_by(GameAction.id))).all()
        game = await session.get(Game, ids[0])
        assert game is not None
        totals = await repo.live_totals(session, game)
    assert [tuple(r) for r in rows] == [(ids[0], 1), (ids[0], 2), (ids[1], 1)]
    assert (totals.actions, totals.time_used_ms) == (2, 6)


class HeldWriter:
    """A log writer whose writes wait until the test lets them through."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.batches: list[list[int]] = []

    async def write(self, rows: list[log_writer.LogRow]) -> None:
        self.batches.append([row.seq for row in rows])
        await self.release.wait()

    async def close(self) -> None:
        return None

    def ready(self) -> bool:
        return True


async def test_an_append_does_not_wait_for_the_batch_in_flight(
    store: GroupCommitSqlStore,
) -> None:
    first, second = HeldWriter(), HeldWriter()
    store._logs, store._idle = [first, second], [second, first]
    one = asyncio.create_task(store.append_action(1, 1, {"op": "deal"}, 1.0, Totals(0, 1, 0)))
    await asyncio.sleep(0.01)
    two = asyncio.create_task(store.append_action(2, 1, {"op": "deal"}, 1.0, Totals(0, 1, 0)))
    three = asyncio.create_task(store.append_action(3, 1, {"op": "deal"}, 1.0, Totals(0, 1, 0)))
    await asyncio.sleep(0.01)
    # The second batch is on its way while the first still commits. With a batch in
    # flight it starts at the end of the turn: the third append, made in the same turn,
    # goes with it.
    assert first.batches == [[1]] and second.batches == [[1, 1]]
    second.release.set()
    await asyncio.wait_for(asyncio.gather(two, three), 1)
    assert not one.done()
    first.release.set()
    await asyncio.wait_for(one, 1)


async def test_a_lone_append_sends_its_row_in_its_own_turn(store: GroupCommitSqlStore) -> None:
    # No batch in flight: the writer starts in the appending task's turn (app/runtime/eager.py),
    # so the row is on its way before the callbacks queued earlier in this turn run.
    order: list[str] = []

    class Noting(HeldWriter):
        async def write(self, rows: list[log_writer.LogRow]) -> None:
            order.append("row sent")
            await super().write(rows)

    noting = Noting()
    store._logs, store._idle = [noting], [noting]
    loop = asyncio.get_running_loop()
    loop.call_soon(order.append, "queued earlier")
    loop.call_soon(noting.release.set)
    # Awaited right here (wait_for would start it in a task of its own, one turn later).
    await store.append_action(1, 1, {"op": "deal"}, 1.0, Totals(0, 1, 0))
    assert order == ["row sent", "queued earlier"]


async def test_a_lone_caller_cancelled_mid_write_still_gets_its_row_logged(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    (game, *_) = await games(session_factory, 1)
    await store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0))  # connected
    waiting = asyncio.ensure_future(
        store.append_action(game, 2, {"op": "deal"}, 2.0, Totals(-2, 2, 0)))
    await asyncio.sleep(0)  # its statement is in flight: sent from its own first step
    assert store._writers and not any(isinstance(w, asyncio.Task) for w in store._writers)
    waiting.cancel()  # the player's task goes away (a closed socket, a shutdown)
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await asyncio.wait_for(asyncio.gather(*store._writers), 5)  # the write is not cut
    async with session_factory() as session:
        assert await session.scalar(select(func.count()).select_from(GameAction)) == 2
        row = await session.get(Game, game)
        assert row is not None and (await repo.live_totals(session, row)).actions == 2
    await store.append_action(game, 3, {"op": "deal"}, 3.0, Totals(-3, 3, 0))


async def test_then_runs_as_the_batch_commits_before_its_callers_wake(
    store: GroupCommitSqlStore,
) -> None:
    # The duel adopts its seat in `then`: for every row of a batch as the commit's answer
    # is read, not as each caller's task gets its turn one after the other.
    held = HeldWriter()
    store._logs, store._idle = [held], [held]
    order: list[str] = []

    async def append(game: int) -> None:
        await store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(0, 1, 0),
                                  then=lambda: order.append(f"then {game}"))
        order.append(f"woke {game}")

    first = asyncio.create_task(append(1))
    await asyncio.sleep(0.01)
    rest = [asyncio.create_task(append(game)) for game in (2, 3)]  # queued: one batch
    await asyncio.sleep(0.01)
    assert order == [] and held.batches == [[1]]
    held.release.set()
    await asyncio.wait_for(asyncio.gather(first, *rest), 1)
    assert held.batches == [[1], [1, 1]]
    assert order.index("then 1") < order.index("woke 1")
    assert order.index("then 3") < order.index("woke 2")  # the batch's, then its callers


async def test_then_runs_for_a_caller_gone_away_and_not_for_a_failed_write(
    store: GroupCommitSqlStore,
) -> None:
    held = HeldWriter()
    store._logs, store._idle = [held], [held]
    called: list[int] = []
    waiting = asyncio.create_task(store.append_action(
        1, 1, {"op": "deal"}, 1.0, Totals(0, 1, 0), then=lambda: called.append(1)))
    await asyncio.sleep(0.01)
    waiting.cancel()  # its row is in flight: it commits, and memory must follow the log
    with pytest.raises(asyncio.CancelledError):
        await waiting
    held.release.set()
    await asyncio.wait_for(asyncio.gather(*store._writers), 1)
    assert called == [1]

    class Failing(HeldWriter):
        async def write(self, rows: list[log_writer.LogRow]) -> None:
            raise log_writer.WriteFailed("disk full")

    failing = Failing()
    store._logs, store._idle = [failing], [failing]
    with pytest.raises(StoreError):
        await store.append_action(2, 1, {"op": "deal"}, 1.0, Totals(0, 1, 0),
                                  then=lambda: called.append(2))
    assert called == [1]


async def test_a_writer_with_no_connection_yet_starts_in_a_task(
    session_factory: async_sessionmaker[AsyncSession], store: GroupCommitSqlStore
) -> None:
    # Connecting may need a task of its own (asyncpg's connect runs under asyncio.timeout),
    # so only a connected writer starts eagerly; an eager one that finds more rows queued
    # after its batch hands them to a task.
    (game, other, *_) = await games(session_factory, 1)
    first = asyncio.ensure_future(
        store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0)))
    await asyncio.sleep(0)
    assert all(isinstance(w, asyncio.Task) for w in store._writers)
    await first
    lone = asyncio.ensure_future(
        store.append_action(game, 2, {"op": "deal"}, 2.0, Totals(-2, 2, 0)))
    await asyncio.sleep(0)
    more = [asyncio.ensure_future(store.append_action(
        other, seq, {"op": "deal"}, 2.0, Totals(-seq, seq, 0))) for seq in (1, 2)]
    await asyncio.wait_for(asyncio.gather(lone, *more), 5)
    async with session_factory() as session:
        assert await session.scalar(select(func.count()).select_from(GameAction)) == 4


class _Broken:
    """A prepared statement whose driver is in a state asyncpg does not expect (seen
    after backends were terminated under load)."""

    async def fetch(self, *args: object) -> None:
        raise asyncpg.InternalClientError("cannot perform operation: another operation is "
                                          "in progress")


async def test_postgres_writer_survives_an_unexpected_driver_error(
    pg_sessions: async_sessionmaker[AsyncSession], pg_store: GroupCommitSqlStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = pg_store
    (game, *_) = await games(pg_sessions, 1)
    await store.append_action(game, 1, {"op": "deal"}, 1.0, Totals(-1, 1, 0))
    writer = store._idle[-1]  # the writer used last, and the next one to be used
    writer._one = writer._statement = _Broken()  # type: ignore[attr-defined]
    with caplog.at_level("WARNING"), pytest.raises(StoreError):
        await store.append_action(game, 2, {"op": "deal"}, 2.0, Totals(-2, 2, 0))
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    # Reconnected: the next append is written (no acknowledged row is missing).
    await store.append_action(game, 2, {"op": "deal"}, 2.0, Totals(-2, 2, 0))
    async with pg_sessions() as session:
        assert list(await session.scalars(
            select(GameAction.seq).where(GameAction.game_id == game))) == [1, 2]


async def test_postgres_writer_keeps_every_acknowledged_row_while_backends_are_terminated(
    pg_sessions: async_sessionmaker[AsyncSession], pg_store: GroupCommitSqlStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = pg_store
    game_ids = await games(pg_sessions, 10)
    acknowledged: set[tuple[int, int]] = set()

    async def play(game: int) -> None:
        seq = 1
        for attempt in range(40):
            try:
                await store.append_action(game, seq, {"op": "deal"}, float(attempt),
                                          Totals(-seq, seq, 0))
            except StoreError:
                continue  # not acknowledged: the same seq again
            acknowledged.add((game, seq))
            seq += 1

    async def terminate_backends() -> None:
        async with pg_sessions() as session:
            for _ in range(15):
                await session.execute(text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                    "current_database() AND pid <> pg_backend_pid()"))
                await asyncio.sleep(0.01)

    with caplog.at_level("WARNING"):
        await asyncio.gather(terminate_backends(), *(play(game) for game in game_ids))
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text[-2000:]
    async with pg_sessions() as session:
        logged = set((await session.execute(
            select(GameAction.game_id, GameAction.seq))).tuples())
    assert acknowledged <= logged  # nothing acknowledged is missing
    for game in game_ids:  # and every writer still writes
        seq = 1 + max((s for g, s in logged if g == game), default=0)
        await store.append_action(game, seq, {"op": "deal"}, 99.0, Totals(-seq, seq, 0))
