"""Deals solved ahead of need, so a new match rarely waits for the solver.

The pool holds ready deals in **bins**, each a ``(suits, flavour)`` pair:

- ``(1, "solvable")`` and ``(2, "solvable")``: solvable deals of the mapping (a random
  number through ``app.engine.solver.solvable``), for tables of difficulty "any";
- ``(suits, "easy" | "medium" | "hard")`` for 1, 2 and 4 suits: random generator deals
  the solver won, rated by its effort, for tables that ask for a difficulty and for
  4-suit tables (docs/solo-and-daily.md section 8).

One background task refills it: it asks ``make(bin)`` for one deal at a time on its own
worker (so it never takes more than one core and never blocks the event loop), for the
bin that misses the most deals first, and sleeps while every bin is full. The worker is
a thread, or with ``processes`` one spawned child process: the solver is pure Python and
holds the interpreter's lock, so a solving thread delays every wake-up of the event loop
by up to the switch interval (measured: docs/bench/settings-measurements.md,
``DEAL_POOL_WORKER``); a child process does not, and is killed at once at
:meth:`DealPool.stop`. ``make`` must then be a module-level function (it is pickled by
name).
The child runs at a lower CPU priority than the server (``BACKGROUND_NICENESS``) and ends
with it, a SIGKILL included (``solver_worker.exit_with_parent``): a worker restarted after
a crash refills its pool from nothing, and at full priority that child took a core of the
two that the survivors needed for the crashed worker's players (``bench.failover``).
``make`` answers ``None`` when its draw gave nothing (a deal the solver did not win).
A rated draw's difficulty is the solver's, not the one asked for: the deal goes to the
bin of its own difficulty, or is dropped if that bin is full.

``take`` never waits: it hands out a ready deal or ``None`` (then the caller searches one
itself, ``app.services.deals``). A deal leaves the pool when taken, so no deal is handed
out twice. The contents live in memory; what a pool holds at stop is kept in the
database for the next start (``app/services/deal_pool_store.py``: :meth:`holding`, then
:meth:`offer` at start). A bin of size 0 is left out; with every size 0 the pool is off.

The process's pool is installed by the rooms wiring (``app/wiring.py``) and read
by ``app.services.deals.choose_deal`` through :func:`installed`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import logging
import multiprocessing
import multiprocessing.pool
import os
import threading
from collections import deque
from collections.abc import Callable, Mapping

from app.db.games import DealChoice
from app.runtime import solver_worker

log = logging.getLogger(__name__)

Bin = tuple[int, str]
"""``(suits, flavour)``: flavour ``SOLVABLE`` or a difficulty."""
SOLVABLE = "solvable"
DIFFICULTIES = ("easy", "medium", "hard")
SOLVABLE_SUITS = (1, 2)
RATED_SUITS = (1, 2, 4)
MakeDeal = Callable[[Bin], DealChoice | None]
RETRY_SECONDS = 5.0
BACKGROUND_NICENESS = 10
"""How much lower the child's CPU priority is than the server's (``os.nice``): its deals
are made ahead of need, so every live action, reconnection and hint on a busy machine
comes first (at 10 the kernel gives it about a tenth of a contended core); on an idle
one it still has the core to itself."""
WAIT_SECONDS = 10.0
"""Default of how long a match start may search for a deal of its difficulty when its
bin is empty (setting ``deal_pool_wait_seconds``)."""


class PoolSizeError(ValueError):
    """A pool size that is not a whole number ≥ 0."""


def bin_sizes(*, solvable: int, rated: int) -> dict[Bin, int]:
    """The standard bins: ``solvable`` deals per solvable bin, ``rated`` per rated bin."""
    sizes = {(suits, SOLVABLE): solvable for suits in SOLVABLE_SUITS}
    sizes.update({(suits, level): rated for suits in RATED_SUITS for level in DIFFICULTIES})
    return sizes


def _check_size(size: object) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise PoolSizeError(f"a deal pool size must be a whole number ≥ 0, not {size!r}")
    return size


class DealPool:
    def __init__(self, *, sizes: Mapping[Bin, int], make: MakeDeal,
                 wait_seconds: float = WAIT_SECONDS,
                 cancel: threading.Event | None = None, processes: bool = False) -> None:
        """``cancel`` (thread worker): an event ``make`` watches; :meth:`stop` sets it so
        that a long solve in progress gives up instead of being waited for.
        ``processes``: solve in one child process instead of a thread."""
        checked = {bin_: _check_size(size) for bin_, size in sizes.items()}
        self.sizes = {bin_: size for bin_, size in checked.items() if size > 0}
        self.wait_seconds = wait_seconds
        self._make = make
        self._cancel = cancel
        self._ready: dict[Bin, deque[DealChoice]] = {b: deque() for b in self.sizes}
        self._wanted = asyncio.Event()  # set when a take leaves room to refill
        self._full = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._in_flight: concurrent.futures.Future[DealChoice | None] | None = None
        self.processes = processes
        self._child: ChildProcess | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.sizes)

    def ready(self, bin_: Bin) -> int:
        """How many deals of ``bin_`` are ready now."""
        return len(self._ready.get(bin_, ()))

    def take(self, bin_: Bin) -> DealChoice | None:
        """A ready deal of ``bin_`` (removed from the pool), or ``None``."""
        ready = self._ready.get(bin_)
        if not ready:
            return None
        choice = ready.popleft()
        self._full.clear()
        self._wanted.set()
        return choice

    def take_rated(self, suits: int) -> DealChoice | None:
        """A ready rated deal of any difficulty: from the fullest of the suit count's bins."""
        bins = [(suits, level) for level in DIFFICULTIES]
        fullest = max(bins, key=self.ready)
        return self.take(fullest)

    def offer(self, bin_: Bin, choice: DealChoice) -> bool:
        """Keep ``choice`` (found elsewhere) in ``bin_`` if it has room; whether it was kept."""
        ready = self._ready.get(bin_)
        if ready is None or len(ready) >= self.sizes[bin_] or choice in ready:
            return False  # two numbers may map to one deal: keep it once
        ready.append(choice)
        return True

    def holding(self) -> list[tuple[Bin, DealChoice]]:
        """Every ready deal with its bin, oldest first within a bin (to keep at stop)."""
        return [(bin_, choice) for bin_, ready in self._ready.items() for choice in ready]

    def start(self) -> None:
        """Start filling in the background (needs a running event loop); no-op if off."""
        if not self.enabled or self._task is not None:
            return
        if self.processes:
            self._child = ChildProcess()
        else:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="deal-pool"
            )
        self._task = asyncio.create_task(self._fill(), name="deal-pool")

    async def filled(self) -> None:
        """Wait until every bin is full (tests, benchmarks)."""
        if not self.enabled:
            return
        await self._full.wait()

    async def stop(self) -> None:
        """Stop filling; waits for a solve in progress (a thread cannot be interrupted:
        the ``cancel`` event, if any, asks it to give up)."""
        if self._cancel is not None:
            self._cancel.set()
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
        child, self._child = self._child, None
        if child is not None:  # a solve in progress dies with it
            await asyncio.to_thread(child.terminate)

    def _most_wanted(self) -> Bin | None:
        """The bin missing the most deals, if any is below its size."""
        bin_ = max(self._ready, key=lambda b: self.sizes[b] - len(self._ready[b]))
        return bin_ if len(self._ready[bin_]) < self.sizes[bin_] else None

    async def _fill(self) -> None:
        while True:
            wanted = self._most_wanted()
            if wanted is None:
                self._full.set()
                self._wanted.clear()
                await self._wanted.wait()
                continue
            try:
                choice = await self._make_one(wanted)
            except Exception:  # never seen; keep the server up and try again later
                log.exception("the deal pool could not make a deal for bin %s", wanted)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if choice is not None:
                self.offer(landing_bin(wanted, choice), choice)

    async def _make_one(self, wanted: Bin) -> DealChoice | None:
        if self._child is not None:
            return await self._child.run(self._make, wanted)
        assert self._worker is not None
        self._in_flight = self._worker.submit(self._make, wanted)
        choice = await asyncio.wrap_future(self._in_flight)
        self._in_flight = None
        return choice


class ChildProcess:
    """One spawned child process running calls one at a time, awaited on the event loop."""

    def __init__(self) -> None:
        solver_worker.quiet_resource_tracker()  # before the process's first spawn
        self._pool: multiprocessing.pool.Pool | None = multiprocessing.get_context(
            "spawn").Pool(1, initializer=background_child, initargs=(os.getpid(),))

    def run(self, make: MakeDeal, bin_: Bin) -> asyncio.Future[DealChoice | None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[DealChoice | None] = loop.create_future()

        def settle(result: DealChoice | None = None, error: BaseException | None = None
                   ) -> None:  # on the event loop
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        # The pool's result thread calls these: hand the answer over to the loop.
        assert self._pool is not None, "the child process was terminated"
        self._pool.apply_async(
            make, (bin_,), callback=lambda result: loop.call_soon_threadsafe(settle, result),
            error_callback=lambda error: loop.call_soon_threadsafe(settle, None, error))
        return future

    def terminate(self) -> None:
        """Kill the child (a solve in progress included) and wait for it (blocking)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.terminate()
        pool.join()
        # The pool's queues hold named semaphores, unlinked when the queues are collected.
        # A pool is cyclic garbage (its pending results point back at it), which only a
        # full collection frees, and the server's collector seldom runs one
        # (app/ops/serve.py): `spider serve` ended with "6 leaked semaphore objects".
        del pool
        gc.collect()


def background_child(parent: int) -> None:
    """The start of the pool's child: a lower priority, and an end with its server."""
    os.nice(BACKGROUND_NICENESS)
    solver_worker.exit_with_parent(parent)


def landing_bin(asked: Bin, choice: DealChoice) -> Bin:
    """Where a deal made for ``asked`` goes: a rated deal to its own difficulty's bin."""
    suits, flavour = asked
    if flavour == SOLVABLE or choice.difficulty is None:
        return asked
    return suits, choice.difficulty


_installed: DealPool | None = None


def install(pool: DealPool | None) -> None:
    """Make ``pool`` the process's pool (``None`` removes it)."""
    global _installed
    _installed = pool


def installed() -> DealPool | None:
    return _installed
