"""Test databases: a migrated SQLite file and a fresh PostgreSQL database per test run
(the helpers that make them are the benchmarks', bench/database.py).

PostgreSQL lives at 127.0.0.1:5432 (database ``test`` is used only to create and drop a
uniquely named database for this run). Under CI=true a missing server fails the tests;
elsewhere they skip with a message saying what to start.
"""

import asyncio
import atexit
import contextlib
import shutil
import tempfile
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.engine import make_engine, make_session_factory
from bench import database as bench_database
from bench.database import (
    PG_HOST,
    PG_PORT,
    PG_USER,
    downgrade,
    drop_pg_database,
    pg_admin,
    pg_url,
    sqlite_url,
    upgrade,
)
from tests.support.servers import unavailable

__all__ = ["downgrade", "drop_pg_database", "pg_url", "sqlite_url", "upgrade"]

BACKENDS = ("sqlite", "postgresql")


def require_postgres() -> None:
    """Fail under CI, skip elsewhere, when PostgreSQL does not answer."""
    where = bench_database  # read at the call: tests point it elsewhere
    try:
        asyncio.run(pg_admin("SELECT 1"))
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        unavailable(
            f"PostgreSQL is not reachable at {where.PG_HOST}:{where.PG_PORT} as "
            f"{where.PG_USER} (database {where.PG_ADMIN_DB!r}): {error}. "
            "Start PostgreSQL to run these tests."
        )


def create_pg_database() -> str:
    require_postgres()
    return bench_database.create_pg_database()


# Migrated once per test process, then copied: running the migrations took ~1 s a
# database (Alembic, 15 revisions), every server fixture of tests/api and tests/cluster
# paid it, and on the loaded machine more.
_templates: dict[str, str] = {}
_template_lock = threading.Lock()


def pg_tables_like(name: str, pattern: str) -> list[str]:
    """The tables of PostgreSQL database ``name`` whose names are ``LIKE pattern`` (what a
    benchmark left behind)."""
    async def read() -> list[str]:
        connection = await asyncpg.connect(pg_url(name).replace("+asyncpg", ""))
        try:
            return [row[0] for row in await connection.fetch(
                "SELECT tablename FROM pg_tables WHERE tablename LIKE $1", pattern)]
        finally:
            await connection.close()

    return asyncio.run(read())


def migrated_sqlite_url(folder: Path) -> str:
    """A SQLite file in ``folder`` holding the whole schema (a copy of this process's
    migrated template)."""
    with _template_lock:
        if "sqlite" not in _templates:
            template = Path(tempfile.mkdtemp(prefix="spider-template-")) / "template.db"
            upgrade(sqlite_url(template))
            _templates["sqlite"] = str(template)
            atexit.register(shutil.rmtree, template.parent, ignore_errors=True)
    target = folder / "spider.db"
    shutil.copyfile(_templates["sqlite"], target)
    return sqlite_url(target)


def migrated_pg_database() -> str:
    """A new PostgreSQL database holding the whole schema, with a unique name; its name.
    A copy of this process's migrated template (``CREATE DATABASE … TEMPLATE``: tens of
    milliseconds); drop it with ``drop_pg_database``. The template goes at exit."""
    with _template_lock:
        if "postgresql" not in _templates:
            template = create_pg_database()
            upgrade(pg_url(template))
            _templates["postgresql"] = template
            atexit.register(_drop_on_a_thread, template)
    name = f"spider_test_{uuid.uuid4().hex[:16]}"
    asyncio.run(pg_admin(f'CREATE DATABASE "{name}" TEMPLATE "{_templates["postgresql"]}"'))
    return name


def _drop_on_a_thread(name: str) -> None:
    """``drop_pg_database`` where an event loop may be marked running (Playwright's)."""
    dropping = threading.Thread(target=drop_pg_database, args=(name,))
    dropping.start()
    dropping.join()


TABLES = (
    "player_badges", "daily_streaks", "solo_assists", "solo_actions", "solo_games",
    "game_actions", "games", "matches", "invites", "seats", "duel_tables",
    "ratings", "ignores", "friendships", "players", "pooled_deals", "solo_pool",
)


async def _truncate(url: str) -> None:
    database = url.rsplit("/", 1)[1]
    connection = await asyncpg.connect(
        host=PG_HOST, port=PG_PORT, user=PG_USER, database=database, timeout=5
    )
    try:
        await connection.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE")
    finally:
        await connection.close()


class MigratedDatabases:
    """One migrated template per backend for the run; each test gets a clean copy."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self._sqlite_template: Path | None = None
        self._pg_name: str | None = None

    def fresh_url(self, backend: str, tmp_path: Path) -> str:
        if backend == "sqlite":
            if self._sqlite_template is None:
                template = self.workdir / "template.db"
                upgrade(sqlite_url(template))
                self._sqlite_template = template
            target = tmp_path / "spider.db"
            shutil.copyfile(self._sqlite_template, target)
            return sqlite_url(target)
        if self._pg_name is None:
            self._pg_name = create_pg_database()
            upgrade(pg_url(self._pg_name))
        url = pg_url(self._pg_name)
        asyncio.run(_truncate(url))
        return url

    def close(self) -> None:
        """Drop this run's PostgreSQL database. On a thread of its own: at the end of the
        session the last test may be a browser test, whose Playwright marks an event loop
        as running in this thread, and ``asyncio.run`` refuses to start under it."""
        if self._pg_name is not None:
            dropping = threading.Thread(target=drop_pg_database, args=(self._pg_name,))
            dropping.start()
            dropping.join()


@pytest.fixture(scope="session")
def migrated_databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MigratedDatabases]:
    databases = MigratedDatabases(tmp_path_factory.mktemp("databases"))
    yield databases
    databases.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(migrated_databases: MigratedDatabases, backend: str, tmp_path: Path) -> str:
    """A migrated, empty database of the parametrised backend."""
    return migrated_databases.fresh_url(backend, tmp_path)


@contextlib.asynccontextmanager
async def sessions_on(url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """A session factory on its own engine, disposed of afterwards."""
    engine = make_engine(url)
    try:
        yield make_session_factory(engine)
    finally:
        await engine.dispose()


@pytest.fixture
async def session_factory(database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    async with sessions_on(database_url) as sessions:
        yield sessions


@pytest.fixture
async def session(
    session_factory: async_sessionmaker[AsyncSession],
) -> AsyncIterator[AsyncSession]:
    async with session_factory() as opened:
        yield opened
