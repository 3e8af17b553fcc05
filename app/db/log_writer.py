"""Batches of action-log rows written in one transaction on a connection the writer keeps.

The group commit (``app/services/group_commit.py``) calls :meth:`LogWriter.write` once per
batch. Going through an ORM session there cost more than the commit itself: a pool
checkout with its pre-ping round trip, ORM bulk persistence, BEGIN and COMMIT round trips.
Here the writer checks one connection out of the engine's pool (same URL, same connect
hooks: SQLite's foreign keys and WAL) and keeps it:

- PostgreSQL: one prepared INSERT of the batch's rows, each with its game's totals after
  it (over ``unnest`` arrays; a batch of one row, a plain ``VALUES`` of its own). asyncpg
  runs it outside any explicit transaction, so it is its own transaction: one round trip
  per batch, commit included. The games rows are not touched (revision 0009).
- SQLite: ``BEGIN IMMEDIATE``, one ``executemany``, ``COMMIT``, all in one hop to the
  driver's thread.

Per row, the cheapest encoding that reads back through the ORM exactly as if the ORM had
written it: the action as compact JSON text (pydantic-core, a tenth of the JSON type's
``json.dumps``), the time as the UTC datetime the column's type would bind. (POSIX
seconds turned into the timestamp by PostgreSQL, ``to_timestamp``, would be cheaper
still but round some microseconds the other way.) A connection that failed is thrown
away; the next batch checks out a fresh one.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

import aiosqlite
import asyncpg  # type: ignore[import-untyped]
from pydantic_core import to_json
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.models import GameAction, utc_from_seconds

log = logging.getLogger(__name__)


class LogRow(NamedTuple):
    """One appended action and its game's totals after it (a tuple: one per action, and
    a batch's columns are ``zip(*rows)``)."""

    game_id: int
    seq: int
    action: dict[str, Any]
    at: float  # POSIX seconds
    score: int
    actions_count: int
    time_used_ms: int


class Refused(Exception):
    """The database refused the batch on a constraint; nothing of it was written."""

    def __init__(self, seq_taken: bool) -> None:
        super().__init__("unique (game, seq)" if seq_taken else "constraint")
        self.seq_taken = seq_taken  # the unique (game, seq): another writer has that seq


class WriteFailed(Exception):
    """Any other failure; nothing of the batch is known to be written."""


class LogWriter(Protocol):
    async def write(self, rows: Sequence[LogRow]) -> None:
        """All rows, each with its game's totals after it, in one transaction, or none."""
        ...

    def ready(self) -> bool:
        """Connected (and on PostgreSQL its statements prepared): a write that goes
        straight to the database, with nothing to connect first."""
        ...

    async def close(self) -> None: ...


def log_writer(engine: AsyncEngine, *, synchronous_commit: bool = True) -> LogWriter:
    if engine.dialect.name == "postgresql":
        return PostgresLogWriter(engine, synchronous_commit=synchronous_commit)
    if engine.dialect.name == "sqlite":
        return SqliteLogWriter(engine)
    raise ValueError(f"no action-log writer for {engine.dialect.name}")


def _json_text(value: dict[str, Any]) -> str:
    return to_json(value).decode()


def _processor(column: str, engine: AsyncEngine) -> Callable[[Any], Any]:
    process = GameAction.__table__.c[column].type.bind_processor(engine.dialect)
    return process if process is not None else (lambda value: value)


class _KeptConnection:
    """One connection out of the engine's pool, held until it fails or the writer closes."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._connection: AsyncConnection | None = None
        self._driver: Any = None

    async def driver(self) -> Any:
        """The driver's own connection (asyncpg's, aiosqlite's), checked out once."""
        if self._driver is None:
            if self._connection is None:
                self._connection = await self._engine.connect()  # pre-ping, once
            raw = await self._connection.get_raw_connection()  # a greenlet hop: not per batch
            self._driver = raw.driver_connection
        return self._driver

    @property
    def connected(self) -> bool:
        return self._driver is not None

    async def discard(self) -> None:
        self._driver = None
        connection, self._connection = self._connection, None
        if connection is None:
            return
        with contextlib.suppress(Exception):
            await connection.invalidate()
        with contextlib.suppress(Exception):
            await connection.close()

    async def close(self) -> None:
        self._driver = None
        connection, self._connection = self._connection, None
        if connection is None:
            return
        try:
            await connection.close()
        except Exception:  # at shutdown: the other closers still run
            log.warning("closing the action-log connection failed", exc_info=True)
            with contextlib.suppress(Exception):
                await connection.invalidate()


# One statement, one round trip, its own transaction: the rows go in (in batch order,
# so ids follow the order of arrival), each with its game's totals after it. The games
# row is not touched while a game is played (revision 0009): its totals are those of its
# last logged action (app/db/games.py ``live_totals``), and the end of the game writes
# them to the row.
POSTGRES_BATCH = """
INSERT INTO game_actions (game_id, seq, action, at, score, actions_count, time_used_ms)
SELECT game_id, seq, action::json, at, score, actions_count, time_used_ms
FROM unnest($1::integer[], $2::integer[], $3::text[], $4::timestamptz[],
            $5::integer[], $6::integer[], $7::integer[])
     WITH ORDINALITY AS b(game_id, seq, action, at, score, actions_count, time_used_ms, n)
ORDER BY n
"""


# A batch of one row (a lone action: the usual case below a few hundred actions per
# second) without the arrays and the ordering: one plain INSERT, the shape of the load
# harness's lone-commit floor (bench/load.py).
POSTGRES_ONE = """
INSERT INTO game_actions (game_id, seq, action, at, score, actions_count, time_used_ms)
VALUES ($1, $2, $3::json, $4, $5, $6, $7)
"""


class PostgresLogWriter:
    def __init__(self, engine: AsyncEngine, *, synchronous_commit: bool = True) -> None:
        self._kept = _KeptConnection(engine)
        self._synchronous_commit = synchronous_commit
        # asyncpg PreparedStatements on the kept connection: a batch's, a lone row's.
        self._statement: Any = None
        self._one: Any = None
        self._driver: Any = None

    async def _prepared(self) -> Any:
        if self._driver is not None and self._driver.is_closed():
            # The server or the network closed it since the last batch (restart, idle
            # timeout, pg_terminate_backend): replace it before anyone's batch fails.
            await self._discard()
        if self._statement is None:
            self._driver = None
            self._driver = await self._kept.driver()
            if not self._synchronous_commit:
                # This session only: the rest of the pool keeps the server's setting.
                await self._driver.execute("SET synchronous_commit TO off")
            self._one = await self._driver.prepare(POSTGRES_ONE)
            self._statement = await self._driver.prepare(POSTGRES_BATCH)
        return self._statement

    async def _discard(self) -> None:
        self._statement = self._one = self._driver = None
        await self._kept.discard()

    def ready(self) -> bool:
        return (self._statement is not None and self._driver is not None
                and not self._driver.is_closed())

    async def write(self, rows: Sequence[LogRow]) -> None:
        try:
            statement = await self._prepared()
            if len(rows) == 1:
                row = rows[0]
                await self._one.fetch(
                    row.game_id, row.seq, _json_text(row.action), utc_from_seconds(row.at),
                    row.score, row.actions_count, row.time_used_ms)
            else:
                game_ids, seqs, actions, ats, scores, counts, times = zip(*rows, strict=True)
                await statement.fetch(
                    # The times as UTCDateTime would bind them, without its call per row.
                    game_ids, seqs, list(map(_json_text, actions)),
                    list(map(utc_from_seconds, ats)), scores, counts, times,
                )
        except asyncpg.IntegrityConstraintViolationError as error:
            # The statement failed as a whole; the connection is fine.
            raise Refused(isinstance(error, asyncpg.UniqueViolationError)) from error
        except Exception as error:
            # Any other failure, the driver's own included (asyncpg's InternalClientError,
            # "another operation is in progress", after backends were terminated): the
            # connection's state is unknown, so it is replaced; the batch is not written
            # (its callers are told: nothing unwritten is acknowledged), and the writer
            # goes on with the next one.
            log.warning("action log write failed (%s); reconnecting for the next batch",
                        type(error).__name__)
            await self._discard()
            raise WriteFailed(type(error).__name__) from error
        except BaseException:
            # Cancelled mid-statement: the connection's state is unknown. Closed now, it
            # is replaced before the next batch (see _prepared).
            if self._driver is not None:
                self._driver.terminate()
            self._statement = self._one = None
            raise

    async def close(self) -> None:
        if self._driver is not None and self._driver.is_closed():
            await self._discard()
        if self._driver is not None and not self._synchronous_commit:
            try:  # the connection goes back to the pool: as the pool gave it
                await self._driver.execute("RESET synchronous_commit")
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                await self._discard()
        self._statement = self._one = self._driver = None
        await self._kept.close()


SQLITE_INSERT = ("INSERT INTO game_actions (game_id, seq, action, at, score, actions_count, "
                 "time_used_ms) VALUES (?, ?, ?, ?, ?, ?, ?)")


class SqliteLogWriter:
    def __init__(self, engine: AsyncEngine) -> None:
        self._kept = _KeptConnection(engine)
        self._when = _processor("at", engine)

    def ready(self) -> bool:
        return self._kept.connected

    async def write(self, rows: Sequence[LogRow]) -> None:
        when = self._when
        logged = [(r.game_id, r.seq, _json_text(r.action), when(utc_from_seconds(r.at)),
                   r.score, r.actions_count, r.time_used_ms) for r in rows]
        try:
            driver: aiosqlite.Connection = await self._kept.driver()
            # IMMEDIATE takes the write lock up front, so a busy database is waited for
            # (busy timeout) rather than failing halfway.
            await driver.execute("BEGIN IMMEDIATE")
            try:
                await driver.executemany(SQLITE_INSERT, logged)
                await driver.commit()
            except BaseException:
                await driver.rollback()
                raise
        except sqlite3.IntegrityError as error:
            raise Refused(getattr(error, "sqlite_errorname", "") in (
                "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY")) from error
        except Exception as error:  # the connection's state is unknown: replaced
            log.warning("action log write failed (%s); reconnecting for the next batch",
                        type(error).__name__)
            await self._kept.discard()
            raise WriteFailed(type(error).__name__) from error

    async def close(self) -> None:
        await self._kept.close()
