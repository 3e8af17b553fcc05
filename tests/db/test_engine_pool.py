"""The connection pool's size comes from the settings; in-memory SQLite keeps its one connection."""

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_connection
from sqlalchemy.pool import StaticPool

from app.db.engine import make_engine, make_session_factory
from app.main import create_app
from app.settings import Settings
from tests.support.database import MigratedDatabases


def test_pool_sizing_from_the_settings(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'pool.db'}"
    app = create_app(Settings(database_url=url, db_pool_size=7, db_max_overflow=3,
                              db_pool_timeout_seconds=2.5))
    pool = app.state.db_engine.pool
    assert pool.size() == 7
    assert pool._max_overflow == 3
    assert pool._timeout == 2.5


def test_in_memory_sqlite_ignores_pool_sizing() -> None:
    engine = make_engine("sqlite+aiosqlite:///:memory:", pool_size=7)
    assert isinstance(engine.pool, StaticPool)



@pytest.fixture
def pg_url(migrated_databases: MigratedDatabases, tmp_path: Path) -> str:
    """PostgreSQL whatever the `backend` parameter: a server is what these tests end."""
    return migrated_databases.fresh_url("postgresql", tmp_path)


async def _terminate_others(url: str) -> int:
    """pg_terminate_backend on every other connection to this database, from a connection
    of its own; how many it ended."""
    admin = make_engine(url)
    try:
        async with admin.connect() as connection:
            ended = await connection.scalar(text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
    finally:
        await admin.dispose()
    return int(ended or 0)


async def test_a_connection_the_server_closed_is_not_handed_out(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Terminated backends (a database restart, an operator's pg_terminate_backend): the
    next sessions work on fresh connections, and no session asks the server first
    whether its connection lives (pre-ping: three round trips per session)."""
    engine = make_engine(pg_url, pool_size=3)
    sessions = make_session_factory(engine)
    statements: list[str] = []
    event.listen(engine.sync_engine, "before_cursor_execute",
                 lambda *args: statements.append(str(args[2])))
    pings: list[object] = []
    ping = AsyncAdapt_asyncpg_connection.ping
    monkeypatch.setattr(AsyncAdapt_asyncpg_connection, "ping",
                        lambda self: pings.append(self) or ping(self))
    try:
        async def both() -> list[Any]:
            """A query on each of two pooled connections; their asyncpg connections."""
            async with sessions() as a, sessions() as b:
                assert await a.scalar(text("SELECT 1")) == 1
                assert await b.scalar(text("SELECT 2")) == 2
                raw = [await (await s.connection()).get_raw_connection() for s in (a, b)]
                return [connection.driver_connection for connection in raw]

        pooled = await both()
        assert await _terminate_others(pg_url) == 2
        for _ in range(200):  # their closing reaches this process: a few loop turns
            if all(connection.is_closed() for connection in pooled):
                break
            await asyncio.sleep(0.005)
        fresh = await both()  # on new connections, no error
        assert not set(map(id, fresh)) & set(map(id, pooled))
        assert statements == ["SELECT 1", "SELECT 2"] * 2  # nothing else was asked
        assert pings == []
    finally:
        await engine.dispose()

