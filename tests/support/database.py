"""Test databases: a migrated SQLite file and a fresh PostgreSQL database per test run.

PostgreSQL lives at 127.0.0.1:5432 (database ``test`` is used only to create and drop a
uniquely named database for this run). Under CI=true a missing server fails the tests;
elsewhere they skip with a message saying what to start.
"""

import asyncio
import concurrent.futures
import contextlib
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import asyncpg
import pytest
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from alembic import command
from app.db.engine import make_engine, make_session_factory
from tests.support.servers import unavailable

ROOT = Path(__file__).resolve().parents[2]
PG_HOST = os.environ.get("SPIDER_TEST_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("SPIDER_TEST_PG_PORT", "5432"))
PG_USER = os.environ.get("SPIDER_TEST_PG_USER", "postgres")
PG_ADMIN_DB = "test"
BACKENDS = ("sqlite", "postgresql")


def alembic_config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "alembic"))
    config.attributes["database_url"] = url
    config.attributes["configure_logger"] = False
    return config


def off_the_running_loop(work: Callable[[], None]) -> None:
    """Run ``work`` (alembic's env.py calls ``asyncio.run``) where no event loop runs: in
    this thread, or in a fresh one when the thread has a loop running. Playwright's sync
    API keeps one running in the main thread once a browser test has started, so a
    database test that came after one in the same session failed with "asyncio.run()
    cannot be called from a running event loop"."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        work()
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(work).result()


def upgrade(url: str, revision: str = "head") -> None:
    off_the_running_loop(lambda: command.upgrade(alembic_config(url), revision))


def downgrade(url: str, revision: str = "base") -> None:
    off_the_running_loop(lambda: command.downgrade(alembic_config(url), revision))


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def pg_url(database: str) -> str:
    return f"postgresql+asyncpg://{PG_USER}@{PG_HOST}:{PG_PORT}/{database}"


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(
        host=PG_HOST, port=PG_PORT, user=PG_USER, database=PG_ADMIN_DB, timeout=5
    )
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def require_postgres() -> None:
    """Fail under CI, skip elsewhere, when PostgreSQL does not answer."""
    try:
        asyncio.run(_admin("SELECT 1"))
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        unavailable(
            f"PostgreSQL is not reachable at {PG_HOST}:{PG_PORT} as {PG_USER} "
            f"(database {PG_ADMIN_DB!r}): {error}. Start PostgreSQL to run these tests."
        )


def create_pg_database() -> str:
    require_postgres()
    name = f"spider_test_{uuid.uuid4().hex[:16]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    return name


def drop_pg_database(name: str) -> None:
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


TABLES = (
    "player_badges", "daily_streaks", "solo_actions", "solo_games",
    "game_actions", "games", "matches", "invites", "seats", "duel_tables",
    "ratings", "ignores", "friendships", "players", "pooled_deals",
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
        if self._pg_name is not None:
            drop_pg_database(self._pg_name)


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
