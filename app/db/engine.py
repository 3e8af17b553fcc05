"""Async engines and session factories; the app makes one per database URL it is given."""

from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def ensure_sqlite_directory(url: str) -> None:
    """SQLite creates the file but not its folder (./data/ on a fresh checkout)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(str(parsed.database)).parent.mkdir(parents=True, exist_ok=True)


def _enable_sqlite_foreign_keys(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(
    url: str, *, pool_size: int = 10, max_overflow: int = 20, pool_timeout: float = 30.0
) -> AsyncEngine:
    ensure_sqlite_directory(url)
    # Connecting a player takes two short queries (the token's player, unfinished games);
    # thousands of players reconnecting at once after a restart queue for these
    # connections, and SQLAlchemy's default 5 + 10 left a few waiting past the timeout.
    sizing: dict[str, float] = {}
    if make_url(url).database not in (None, "", ":memory:"):  # in-memory: one static connection
        sizing = {"pool_size": pool_size, "max_overflow": max_overflow,
                  "pool_timeout": pool_timeout}
    engine = create_async_engine(url, pool_pre_ping=True, **sizing)
    if engine.dialect.name == "sqlite":
        # SQLite ignores foreign keys unless every connection asks for them.
        event.listen(engine.sync_engine, "connect", _enable_sqlite_foreign_keys)
    return engine


def make_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # expire_on_commit=False: services return ORM objects that routes read after commit.
    return async_sessionmaker(engine, expire_on_commit=False)
