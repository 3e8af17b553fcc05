"""Async engines and session factories; the app makes one per database URL it is given."""

from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
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
    parsed = make_url(url)
    sizing: dict[str, float] = {}
    if parsed.database not in (None, "", ":memory:"):  # in-memory: one static connection
        sizing = {"pool_size": pool_size, "max_overflow": max_overflow,
                  "pool_timeout": pool_timeout}
    sqlite = parsed.get_backend_name() == "sqlite"
    # SQLite keeps SQLAlchemy's ping: a connection left mid-transaction by a cancelled
    # writer is found and replaced by it (tests/services/test_group_commit.py), and there
    # it costs no network round trip. PostgreSQL's connections are checked without one.
    engine = create_async_engine(url, pool_pre_ping=sqlite, **sizing)
    if sqlite:
        # SQLite ignores foreign keys unless every connection asks for them.
        event.listen(engine.sync_engine, "connect", _enable_sqlite_foreign_keys)
    else:
        event.listen(engine.sync_engine.pool, "checkout", _refuse_closed)
    return engine


def _refuse_closed(dbapi_connection: object, _record: object, _proxy: object) -> None:
    """A pooled connection the server has closed (a restart, ``pg_terminate_backend``) is
    not handed out: the pool drops it and takes another or opens one.

    In place of SQLAlchemy's ``pool_pre_ping``, which asks the server each time (a
    transaction around an empty query: three round trips, ~0.35 ms of a ~0.9 ms session
    here, measured on 2026-12-04): a closed server sends its goodbye and closes the socket,
    and asyncpg's ``is_closed()`` knows it without asking. A connection cut silently (no
    FIN: a network partition) fails its first query instead, and the pool then drops
    every connection older than that failure."""
    driver = getattr(dbapi_connection, "driver_connection", None)
    is_closed = getattr(driver, "is_closed", None)
    if callable(is_closed) and is_closed():
        raise DisconnectionError("the server closed this connection")


def make_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # expire_on_commit=False: services return ORM objects that routes read after commit.
    return async_sessionmaker(engine, expire_on_commit=False)
