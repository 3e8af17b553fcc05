"""The benchmarks' databases: a migrated SQLite file, or a fresh PostgreSQL database.

PostgreSQL at 127.0.0.1:5432 (SPIDER_TEST_PG_* to change it; database ``test`` is used
only to create and drop a uniquely named database). The test suite uses the same helpers
(tests/support/database.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import uuid
from collections.abc import Callable
from pathlib import Path

import asyncpg
from alembic.config import Config

from alembic import command

ROOT = Path(__file__).resolve().parents[1]
PG_HOST = os.environ.get("SPIDER_TEST_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("SPIDER_TEST_PG_PORT", "5432"))
PG_USER = os.environ.get("SPIDER_TEST_PG_USER", "postgres")
PG_ADMIN_DB = "test"


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


async def pg_admin(sql: str) -> None:
    """One statement on the admin database (creating and dropping databases)."""
    connection = await asyncpg.connect(
        host=PG_HOST, port=PG_PORT, user=PG_USER, database=PG_ADMIN_DB, timeout=5
    )
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def create_pg_database() -> str:
    """A new, empty database with a unique name; its name."""
    name = f"spider_test_{uuid.uuid4().hex[:16]}"
    asyncio.run(pg_admin(f'CREATE DATABASE "{name}"'))
    return name


def drop_pg_database(name: str) -> None:
    asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
