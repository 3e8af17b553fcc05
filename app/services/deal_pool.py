"""A few solvable deals solved ahead of need, so a new match rarely waits for the solver.

For the suit counts that are "solvable only" by default (1 and 2), the pool keeps up to
``size`` ready deals per suit count. One background task refills it: it solves one deal
at a time on its own worker thread (so it never takes more than one core), emptiest suit
count first, and sleeps while every suit count is full. ``take`` never waits: it hands
out a ready deal or ``None`` (then the caller solves one itself, as without a pool).

Each ready deal is made by ``make(suits)``, which draws its own random number from
``secrets``; a deal leaves the pool when taken, so no deal is handed out twice. The
contents live in memory only: a restart just refills. With ``size`` 0 the pool is off.

The process's pool is installed by the rooms wiring (``app/services/live_rooms.py``) and read
by ``app.services.deals.choose_deal`` through :func:`installed`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Iterable

from app.db.games import DealChoice

log = logging.getLogger(__name__)

MakeDeal = Callable[[int], DealChoice]
POOLED_SUITS = (1, 2)
RETRY_SECONDS = 5.0


class PoolSizeError(ValueError):
    """A pool size that is not a whole number ≥ 0."""


class DealPool:
    def __init__(self, *, size: int, make: MakeDeal,
                 suit_counts: Iterable[int] = POOLED_SUITS) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise PoolSizeError(f"the deal pool size must be a whole number ≥ 0, not {size!r}")
        self.size = size
        self._make = make
        self._ready: dict[int, deque[DealChoice]] = {s: deque() for s in suit_counts}
        self._wanted = asyncio.Event()  # set when a take leaves room to refill
        self._full = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._in_flight: concurrent.futures.Future[DealChoice] | None = None

    @property
    def enabled(self) -> bool:
        return self.size > 0

    def ready(self, suits: int) -> int:
        """How many deals with ``suits`` suits are ready now."""
        return len(self._ready.get(suits, ()))

    def take(self, suits: int) -> DealChoice | None:
        """A ready deal with ``suits`` suits (removed from the pool), or ``None``."""
        ready = self._ready.get(suits)
        if not ready:
            return None
        choice = ready.popleft()
        self._full.clear()
        self._wanted.set()
        return choice

    def start(self) -> None:
        """Start filling in the background (needs a running event loop); no-op if off."""
        if not self.enabled or self._task is not None:
            return
        self._worker = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="deal-pool"
        )
        self._task = asyncio.create_task(self._fill(), name="deal-pool")

    async def filled(self) -> None:
        """Wait until every suit count holds ``size`` ready deals (tests, benchmarks)."""
        if not self.enabled:
            return
        await self._full.wait()

    async def stop(self) -> None:
        """Stop filling; waits for a solve in progress (a thread cannot be interrupted)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        in_flight, self._in_flight = self._in_flight, None
        if in_flight is not None and not in_flight.done():  # running: let it finish
            with contextlib.suppress(Exception):
                await asyncio.wrap_future(in_flight)
        if self._worker is not None:
            self._worker.shutdown(wait=True)  # idle by now: returns at once
            self._worker = None

    def _most_wanted(self) -> int | None:
        """The suit count with the fewest ready deals, if any is below ``size``."""
        suits, ready = min(self._ready.items(), key=lambda item: len(item[1]))
        return suits if len(ready) < self.size else None

    async def _fill(self) -> None:
        while True:
            suits = self._most_wanted()
            if suits is None:
                self._full.set()
                self._wanted.clear()
                await self._wanted.wait()
                continue
            try:
                choice = await self._solve_one(suits)
            except Exception:  # never seen; keep the server up and try again later
                log.exception("the deal pool could not make a %d-suit deal", suits)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if choice not in self._ready[suits]:  # two numbers may map to one deal
                self._ready[suits].append(choice)

    async def _solve_one(self, suits: int) -> DealChoice:
        assert self._worker is not None
        self._in_flight = self._worker.submit(self._make, suits)
        choice = await asyncio.wrap_future(self._in_flight)
        self._in_flight = None
        return choice


_installed: DealPool | None = None


def install(pool: DealPool | None) -> None:
    """Make ``pool`` the process's pool (``None`` removes it)."""
    global _installed
    _installed = pool


def installed() -> DealPool | None:
    return _installed
