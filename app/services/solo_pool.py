"""Solo deals solved ahead of need, kept in the database (write-through).

A random solvable solo deal is a random number 1–999,999 through the solver's mapping
(``app.engine.solver.solvable``, version 1): milliseconds with 1 suit, up to a few
seconds with 2, and up to tens of seconds with 4 (the first 4-suit deal after a restart
once took 16.1 s: issue 24). So each suit count keeps a few such numbers ready in the
``solo_pool`` table:

- **write-through**: a deal is inserted (and committed) as soon as it is solved, so what
  is ready survives a restart or a crash, and is shared by every server process;
- **claimed once**: a start deletes the row it takes in its own transaction
  (PostgreSQL skips rows another claim holds, SKIP LOCKED; SQLite writes one at a time),
  so no deal is handed out twice;
- **refilled in the background**: one task per process solves on its own worker (a
  child process by default, as the duel deal pool does: the solver holds the
  interpreter's lock) for the suit count that misses the most, sleeps while all are
  full, and looks again after a claim or every ``RECHECK_SECONDS`` (another process may
  have claimed).

A start whose suit count has nothing ready solves its number itself, as before. A deal
number the player picks is never pooled (it is that number's deal). The pool's numbers
are ordinary solo numbers: the same number, suit count and "solvable only" deal the same
cards for anybody (the player sees the number, as with any random deal).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import multiprocessing
import os
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.games import DealChoice
from app.db.pool_models import SoloPoolDeal
from app.engine.deal import GENERATOR_VERSION, deal
from app.engine.deal_numbers import random_deal_number
from app.engine.solver.difficulty import Difficulty
from app.engine.solver.solvable import solvable_deal
from app.rewards.solo import SUIT_COUNTS, SoloOptions, SoloStart
from app.services.deal_pool import Bin, ChildProcess

log = logging.getLogger(__name__)
SOLO = "solo"
RECHECK_SECONDS = 30.0
RETRY_SECONDS = 5.0


CHILD_NICENESS = 10
"""How much lower the pool's child process runs than the server: a start, a hint or a
move waiting for a core goes first, the refill takes what is left."""


def solo_pool_deal(bin_: Bin) -> DealChoice:
    """The pool's ``make``: a random solo number and its solvable deal (CPU-bound; a
    module-level function, so a child process can run it)."""
    _lower_priority()
    suits, _ = bin_
    number = random_deal_number()
    found = solvable_deal(number, suits)
    return DealChoice(deal_number=found.source, generator_version=GENERATOR_VERSION,
                      difficulty=found.difficulty, play_number=number,
                      play_solvable_only=True)


@functools.cache
def _lower_priority() -> None:
    """In the pool's own child process only (a thread would lower the server's)."""
    if multiprocessing.parent_process() is not None:
        with contextlib.suppress(OSError):
            os.nice(CHILD_NICENESS)


@dataclass(frozen=True, slots=True)
class Pooled:
    number: int
    source: int
    difficulty: Difficulty


async def claim(*, session: AsyncSession, suits: int, avoid: int | None = None
                ) -> Pooled | None:
    """Take (delete) the oldest ready deal of ``suits``, or ``None``; commits. A deal whose
    number is ``avoid`` (today's daily number) is left for another day."""
    where = [SoloPoolDeal.suits == suits]
    if avoid is not None:
        where.append(SoloPoolDeal.number != avoid)
    oldest = (select(SoloPoolDeal.id).where(*where).order_by(SoloPoolDeal.id).limit(1)
              .with_for_update(skip_locked=True))
    row = (await session.scalars(delete(SoloPoolDeal).where(SoloPoolDeal.id.in_(oldest))
                                 .returning(SoloPoolDeal))).one_or_none()
    taken = None if row is None else Pooled(row.number, row.source,
                                            row.difficulty)  # type: ignore[arg-type]
    await session.commit()
    pool = installed()
    if pool is not None:
        pool.wake()
    return taken


def start_from(pooled: Pooled, options: SoloOptions) -> SoloStart:
    """The solo start of a pooled deal: its cards without the solver (the row holds the
    mapping's answer for its number)."""
    return SoloStart(pooled.number, options, pooled.source, pooled.difficulty,
                     deal(pooled.source, options.rules()))


async def ready_counts(*, session: AsyncSession) -> dict[int, int]:
    rows = (await session.execute(select(SoloPoolDeal.suits, func.count())
                                  .group_by(SoloPoolDeal.suits))).all()
    return {int(suits): int(count) for suits, count in rows}


class SoloPool:
    """The background filler of one process (the table is the pool)."""

    def __init__(self, *, sessions: async_sessionmaker[AsyncSession],
                 sizes: Mapping[int, int], processes: bool = True) -> None:
        self.sizes = {suits: size for suits, size in sizes.items()
                      if suits in SUIT_COUNTS and size > 0}
        self._sessions = sessions
        self._processes = processes
        self._wanted = asyncio.Event()
        self._full = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._child: ChildProcess | None = None
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.sizes)

    def wake(self) -> None:
        """A deal was claimed: look again now."""
        self._full.clear()
        self._wanted.set()

    def start(self) -> None:
        if not self.enabled or self._task is not None:
            return
        if self._processes:
            self._child = ChildProcess()
        else:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="solo-pool")
        self._task = asyncio.create_task(self._fill(), name="solo-pool")

    async def filled(self) -> None:
        """Wait until every suit count is full (benchmarks, tests)."""
        if self.enabled:
            await self._full.wait()

    async def stop(self) -> None:
        """Stop filling; what is ready stays in the table. A solve in progress in the
        child process dies with it; a thread's is waited for."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        child, self._child = self._child, None
        if child is not None:
            await asyncio.to_thread(child.terminate)
        worker, self._worker = self._worker, None
        if worker is not None:
            await asyncio.to_thread(worker.shutdown, wait=True)

    async def _most_wanted(self) -> int | None:
        async with self._sessions() as session:
            ready = await ready_counts(session=session)
        missing = {suits: size - ready.get(suits, 0) for suits, size in self.sizes.items()}
        suits = max(missing, key=lambda s: missing[s])
        return suits if missing[suits] > 0 else None

    async def _fill(self) -> None:
        while True:
            try:
                suits = await self._most_wanted()
                if suits is None:
                    self._full.set()
                    self._wanted.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wanted.wait(), RECHECK_SECONDS)
                    continue
                made = await self._make((suits, SOLO))
                async with self._sessions() as session:
                    session.add(SoloPoolDeal(suits=suits, number=made.play_number,
                                             source=made.deal_number,
                                             difficulty=made.difficulty))
                    await session.commit()  # write-through: ready for any process now
            except asyncio.CancelledError:
                raise
            except Exception:  # keep the server up; the starts solve for themselves
                log.exception("the solo deal pool could not make a deal")
                await asyncio.sleep(RETRY_SECONDS)

    async def _make(self, bin_: Bin) -> DealChoice:
        if self._child is not None:
            made = await self._child.run(solo_pool_deal, bin_)
        else:
            loop = asyncio.get_running_loop()
            made = await loop.run_in_executor(self._worker, solo_pool_deal, bin_)
        assert made is not None
        return made


_installed: SoloPool | None = None


def install(pool: SoloPool | None) -> None:
    global _installed
    _installed = pool


def installed() -> SoloPool | None:
    return _installed
