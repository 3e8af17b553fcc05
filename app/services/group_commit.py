"""Group commit for the action log: appends of many games share one transaction.

Every action is in the log before its ack (the log is the truth), and with one commit
per action the database's flush to disk caps a process at a few hundred actions per
second. Here concurrent appends queue up while a transaction is in flight and the next
transaction writes all of them: one flush for the batch, each caller still answered only
after *its* row is committed. A lone action waits for nobody (no timer); batching
happens by itself under load.

The batch goes through ``app/db/log_writer.py``: a connection the writer keeps and, on
PostgreSQL, one statement per batch (one round trip, commit included).

On PostgreSQL two batches can be in flight at once (``writers``, each on its own kept
connection): an action arriving while a batch commits starts the next one at once
instead of waiting for that commit and then its own (measured: the ack waited ~2.6 ms
for the batch in flight at 1,000 players, human pace). Two batches never hold rows of
one game that depend on each other: a game's next action waits for the previous ack
(the game's lock). SQLite has one writer at a time anyway: one batch in flight there.

A lone action (no batch in flight) starts its writer in its own task's turn
(``app/runtime/eager.py``): the statement leaves at once instead of behind the rest of the
turn's work; with a batch in flight, the next one starts at the end of the turn with every
row the turn brought. As a batch commits, each row's ``then`` (the duel's: adopt the seat)
runs right there, before the appending tasks wake one after the other: a caller cancelled
meanwhile still has its committed row in memory. Each caller sends its ack as it wakes.

A batch that meets a constraint (another process won a seq race on the unique
``(game, seq)``) is written again one append at a time, so only the loser gets `SeqTaken`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db.log_writer import LogRow, LogWriter, Refused, WriteFailed, log_writer
from app.rooms.store import SeqTaken, StoreError, Totals
from app.runtime.eager import Eager
from app.services.sql_store import SqlStore

log = logging.getLogger(__name__)

MAX_BATCH = 1000


@dataclass(slots=True)
class _Lane:
    """A log writer taken by a running writer, until its drain gives it back."""

    writer: LogWriter
    held: bool = True


@dataclass(slots=True)
class _Append:
    row: LogRow
    done: asyncio.Future[None]
    then: Callable[[], None] | None = None  # called as the row is known durable


class GroupCommitSqlStore(SqlStore):
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        engine: AsyncEngine | None = None,
        *,
        synchronous_commit: bool = True,
        start_window_s: float | None = None,
        writers: int = 2,
    ) -> None:
        super().__init__(sessions, start_window_s=start_window_s)
        bind = engine if engine is not None else sessions.kw.get("bind")
        if not isinstance(bind, AsyncEngine):
            raise TypeError("group commit needs the sessions' AsyncEngine")
        lanes = max(1, writers) if bind.dialect.name == "postgresql" else 1
        self._logs: list[LogWriter] = [
            log_writer(bind, synchronous_commit=synchronous_commit) for _ in range(lanes)]
        self._idle: list[LogWriter] = list(self._logs)  # writers with no batch in flight
        self._queue: list[_Append] = []
        # The running writers (an Eager or a task), each with its lane while it holds it.
        self._writers: dict[asyncio.Future[None], _Lane] = {}

    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], at: float, progress: Totals,
        *, then: Callable[[], None] | None = None,
    ) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Append(LogRow(
            game_id, seq, action, at,
            progress.score, progress.actions, progress.time_used_ms,
        ), done, then))
        if self._idle:  # else every writer is busy: the first to finish takes this batch
            in_flight = len(self._idle) < len(self._logs)
            log_ = self._idle.pop()
            # Nothing in flight (a lone action, the usual case below a few hundred a
            # second) on a connected writer: started in this task's turn, its statement
            # leaves now instead of behind the rest of the turn's work (app/runtime/eager.py);
            # it runs on its own all the same. Under load (a batch in flight) the next one
            # starts at the end of the turn, with every row the turn brought.
            self._start(_Lane(log_), eager=not in_flight and log_.ready())
        # A caller that goes away cancels only its own future (settling skips it), never
        # the batch others wait on: no shield needed, and none paid for on every action.
        await done

    def _start(self, lane: _Lane, *, eager: bool) -> None:
        writer: asyncio.Future[None]
        if eager:
            writer = Eager(self._drain(lane, hand_over=True))
        else:
            writer = asyncio.create_task(self._drain(lane), name="action-log-writer")
        if not writer.done():
            self._writers[writer] = lane
        writer.add_done_callback(self._stopped)

    async def close(self) -> None:
        """Let the appends already queued commit, then give the kept connection back."""
        if self._writers:
            await asyncio.wait(list(self._writers))
        for log_ in self._logs:
            await log_.close()

    async def _drain(self, lane: _Lane, *, hand_over: bool = False) -> None:
        """Commit batches while appends wait. ``hand_over``: started eagerly (outside any
        task), it commits one batch and leaves the rest to a task of its own: what may
        connect again must run in a task (asyncpg's connect uses ``asyncio.timeout``)."""
        log_ = lane.writer
        batch: list[_Append] = []
        try:
            while self._queue:
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                await self._commit(log_, batch)
                batch = []
                if hand_over and self._queue:
                    lane.held = False  # the task takes the lane over
                    self._start(_Lane(log_), eager=False)
                    return
        except BaseException as error:  # cancelled at shutdown: nobody is left hanging
            failure = StoreError(f"not written: {type(error).__name__}")
            for item in batch + self._queue:
                _settle(item, failure)
            self._queue = []
            raise
        finally:  # free for the next append at once (not one loop turn later)
            if lane.held:
                lane.held = False
                self._idle.append(log_)

    def _stopped(self, writer: asyncio.Future[None]) -> None:
        lane = self._writers.pop(writer, None)
        if lane is not None and lane.held:  # a task cancelled before its first step
            lane.held = False
            self._idle.append(lane.writer)
        # A writer cancelled before its first step never runs _drain's handler.
        if not writer.cancelled() and writer.exception() is not None:
            log.error("the action-log writer failed", exc_info=writer.exception())
        if writer.cancelled() or writer.exception() is not None:
            failure = StoreError("not written: the action-log writer stopped")
            for item in self._queue:
                _settle(item, failure)
            self._queue = []

    async def _commit(self, log_: LogWriter, batch: list[_Append]) -> None:
        try:
            await log_.write([item.row for item in batch])
        except Refused as refused:
            if len(batch) > 1:
                await self._one_by_one(log_, batch)
            else:
                _settle(batch[0], _refusal(batch[0], refused))
            return
        except WriteFailed as error:
            failure = StoreError(f"database error: {error}")
            for item in batch:
                _settle(item, failure)
            return
        for item in batch:
            _settle(item, None)

    async def _one_by_one(self, log_: LogWriter, batch: list[_Append]) -> None:
        for item in batch:
            try:
                await log_.write([item.row])
            except Refused as refused:
                _settle(item, _refusal(item, refused))
            except WriteFailed as error:
                _settle(item, StoreError(f"database error: {error}"))
            else:
                _settle(item, None)


def _refusal(item: _Append, refused: Refused) -> StoreError:
    if refused.seq_taken:  # the loser of a seq race
        return SeqTaken(f"game {item.row.game_id} already has seq {item.row.seq}")
    return StoreError(f"database refused game {item.row.game_id} seq {item.row.seq}: {refused}")


def _settle(item: _Append, error: BaseException | None) -> None:
    if error is None and item.then is not None:
        # Here, as the commit's answer is read, not when the caller wakes (a loop turn
        # later; in a batch, behind the callers before it): called even when the caller
        # went away, for the row is in the log.
        then, item.then = item.then, None
        try:
            then()
        except Exception:  # the batch's other rows are settled all the same
            log.exception("a committed action's follow-up failed")
    if item.done.done():
        return
    if error is None:
        item.done.set_result(None)
    else:
        item.done.set_exception(error)
