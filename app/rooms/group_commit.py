"""Group commit for the action log: appends of many games share one transaction.

Every action is in the log before its ack (the log is the truth), and with one commit
per action the database's flush to disk caps a process at a few hundred actions per
second. Here concurrent appends queue up while a transaction is in flight and the next
transaction writes all of them: one flush for the batch, each caller still answered only
after *its* row is committed. A lone action waits for nobody (no timer); batching
happens by itself under load.

A batch that meets the unique `(game, seq)` constraint (another process won a seq race)
is written again one append at a time, so only the loser gets `SeqTaken`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Game, GameAction
from app.rooms.sql_store import SqlStore, _when
from app.rooms.store import Progress, StoreError

log = logging.getLogger(__name__)

MAX_BATCH = 1000


@dataclass
class _Append:
    game_id: int
    seq: int
    action: dict[str, Any]
    at: float
    progress: Progress
    done: asyncio.Future[None]


class GroupCommitSqlStore(SqlStore):
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        super().__init__(sessions)
        self._queue: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None

    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], at: float, progress: Progress
    ) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Append(game_id, seq, action, at, progress, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._drain(), name="action-log-writer")
        # Shielded: a caller that goes away must not cancel a batch others wait on.
        await asyncio.shield(done)

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            try:
                await self._write(batch)
            except IntegrityError:
                await self._one_by_one(batch)
                continue
            except SQLAlchemyError as error:
                failure = StoreError(f"database error: {type(error).__name__}")
                for item in batch:
                    _settle(item, failure)
                continue
            except BaseException as error:  # cancelled at shutdown: nobody is left hanging
                for item in batch:
                    _settle(item, StoreError(f"not written: {type(error).__name__}"))
                raise
            for item in batch:
                _settle(item, None)

    async def _write(self, batch: list[_Append]) -> None:
        async with self._sessions() as session, session.begin():
            await session.execute(insert(GameAction), [
                {"game_id": a.game_id, "seq": a.seq, "action": a.action, "at": _when(a.at)}
                for a in batch
            ])
            await session.execute(update(Game), [
                {"id": a.game_id, "score": a.progress.score,
                 "actions_count": a.progress.actions, "time_used_ms": a.progress.time_used_ms}
                for a in batch
            ])

    async def _one_by_one(self, batch: list[_Append]) -> None:
        for item in batch:
            try:
                await super().append_action(
                    item.game_id, item.seq, item.action, item.at, item.progress
                )
            except StoreError as error:  # SeqTaken for the loser of the race
                _settle(item, error)
            else:
                _settle(item, None)


def _settle(item: _Append, error: BaseException | None) -> None:
    if item.done.done():
        return
    if error is None:
        item.done.set_result(None)
    else:
        item.done.set_exception(error)
