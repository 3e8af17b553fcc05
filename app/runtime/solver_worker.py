"""Where a request's solver call runs: off the event loop, and off its interpreter's lock.

The solver is pure Python and holds the interpreter's lock while it searches. On a thread
of the server process (``asyncio.to_thread``) it is off the event loop but still takes
the lock from it at every switch interval: measured with ``python -m bench.deal_pool_lag``
(docs/bench/settings-measurements.md, ``DEAL_POOL_WORKER``), the loop's 5 ms sleeps
overshoot by 13.6 ms at the median (p99 112 ms) while a thread solves, 0.22 ms (p99 11 ms)
while a child process does. Every player of the process waits that long for an ack while
someone asks for a hint.

So the calls a request makes into the solver (a duel's or a solo game's hint, a rescue,
the auto-complete check, a solo game's or the daily deal's start, a match's deal when
the deal pool has none ready) go through :func:`off_loop`: to this process's pool of
spawned child processes when the server installed one (setting ``solver_processes``,
2 by default; 0: threads), else to a thread (the CLI, tests that call services directly
and replace the solver with a local function, which a child could not import).

The pool is made once per process and kept across the app's lifespans (tests start
hundreds of apps in one process; a child costs ~0.5 s to spawn): :func:`install` makes
it the one calls go to, :func:`uninstall` stops sending calls to it, and the children
are spawned on the first call and stopped at exit (or by :func:`shutdown`). A call is
pickled by reference (a module-level function and picklable arguments: positions and
answers of the engine are frozen dataclasses). A child that dies (killed, out of memory)
breaks the pool: the call is retried once on a new pool, so a lost child costs a spawn,
not an answer. A call whose caller is cancelled, or that is running when the pool is
shut down, still ends in the child, within the solver's own budget (every call site
passes one; the longest is a match's deal search, ``deal_pool_wait_seconds``): the
executor has no public way to kill its children, and only ``app/runtime/lean_ws.py`` may
touch other libraries' private parts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import io
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TextIO, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


PARENT_CHECK_SECONDS = 1.0


class _QuietOrphan(io.TextIOBase):
    """A child's stderr that says nothing once its server is gone: what a child writes
    then (a pipe to the dead server broken mid-answer) is noise in the server's log."""

    def __init__(self, stream: TextIO, parent: int) -> None:
        self._stream, self._parent = stream, parent

    def write(self, text: str) -> int:
        if os.getppid() != self._parent:
            return len(text)
        return self._stream.write(text)

    def flush(self) -> None:
        if os.getppid() == self._parent:
            self._stream.flush()


def quiet_resource_tracker() -> None:
    """The semaphores of a pool whose server was SIGKILLed are unlinked by
    multiprocessing's resource tracker all the same; its warning that it did ("There
    appear to be N leaked semaphore objects") is noise in the log, one per crash, and at a
    graceful stop too (seen after any solver call). The tracker takes this process's -W
    options when it is spawned, by the first pool of the process: every pool calls this
    first (the deal pool's child, at the app's start, comes before this module's)."""
    option = "ignore:resource_tracker:UserWarning"
    if option not in sys.warnoptions:
        sys.warnoptions.append(option)


def exit_with_parent(parent: int) -> None:
    """In a child: exit once the server process is gone. A parent killed with SIGKILL
    cannot stop its children, and they would wait forever on a queue they hold both
    ends of: every crash of a server would leave its solver processes behind. Quiet
    meanwhile (``_QuietOrphan``)."""
    sys.stderr = _QuietOrphan(sys.stderr, parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)  # no handler in a worker: it ends at once

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class SolverProcesses:
    """Up to ``size`` spawned child processes, spawned when first needed."""

    def __init__(self, size: int) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"a solver pool needs at least one process, not {size!r}")
        self.size = size
        self._lock = threading.Lock()
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None

    def _current(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                quiet_resource_tracker()
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.size, mp_context=multiprocessing.get_context("spawn"),
                    initializer=exit_with_parent, initargs=(os.getpid(),))
            return self._executor

    def _replace(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:  # a concurrent call may have replaced it already
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def run(self, call: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()
        job = functools.partial(call, *args, **kwargs)
        executor = self._current()
        try:
            return await loop.run_in_executor(executor, job)
        except BrokenProcessPool:
            log.warning("a solver process died; retrying %s on a new pool",
                        getattr(call, "__qualname__", call))
            self._replace(executor)
            return await loop.run_in_executor(self._current(), job)

    def shutdown(self, *, wait: bool = False) -> None:
        """Send no more calls to the children: queued calls are cancelled, a call in
        progress ends within its own budget, then the children exit (at the latest when
        the process does); ``wait``: until they have."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)


_processes: SolverProcesses | None = None
_users = 0
"""How many installs are not uninstalled yet (apps of one process may overlap in tests)."""


def install(size: int) -> None:
    """Send this process's solver calls to ``size`` child processes (0: to threads)."""
    global _processes, _users
    if size == 0:
        return
    if _processes is None or _processes.size != size:
        if _processes is not None:
            _processes.shutdown()
        _processes = SolverProcesses(size)
    _users += 1


def uninstall() -> None:
    """Undo one :func:`install`; with none left, calls go to threads again (the children
    stay for the next install)."""
    global _users
    _users = max(0, _users - 1)


def installed() -> SolverProcesses | None:
    return _processes if _users else None


def shutdown(*, wait: bool = False) -> None:
    """Stop the children and forget the pool (calls go to threads until installed);
    ``wait``: until the children have exited."""
    global _processes, _users
    processes, _processes, _users = _processes, None, 0
    if processes is not None:
        processes.shutdown(wait=wait)


async def off_loop(call: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``call(*args, **kwargs)`` in a solver process if installed, else in a thread."""
    processes = installed()
    if processes is None:
        return await asyncio.to_thread(call, *args, **kwargs)
    return await processes.run(call, *args, **kwargs)


_FLAGS: str | None = None


class StopFlag:
    """A cancel flag a solver call checks now and then, in a child process or a thread:
    a file's existence (a child is spawned, it shares no memory with the server, and a
    path pickles by value). ``set`` creates the file, ``clear`` removes it once the
    call is over; calling the flag says whether it is set (cheap: one ``stat``)."""

    def __init__(self, path: str) -> None:
        self.path = path

    @classmethod
    def new(cls) -> StopFlag:
        global _FLAGS
        if _FLAGS is None:
            import tempfile

            _FLAGS = tempfile.mkdtemp(prefix="spider-stop-")
        return cls(os.path.join(_FLAGS, os.urandom(8).hex()))

    def __call__(self) -> bool:
        return os.path.exists(self.path)

    def set(self) -> None:
        with open(self.path, "w"):
            pass

    def clear(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
