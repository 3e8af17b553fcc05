"""A coroutine started in the caller's own turn, finished on its own: Python 3.12's eager
tasks, for the 3.11 this server runs on.

``asyncio.create_task`` runs a coroutine's first step one loop turn later, behind every
callback already queued in this turn (on a busy server, the other sockets' frames read in
the same poll). The action log's writer (``app/services/group_commit.py``) is started by
the append that finds no batch in flight: started eagerly, its statement leaves at once,
in the appending task's turn, instead of after the rest of the turn's work (perf_counter
stamps at human pace on the loaded 2-core machine, append to statement sent: 53-63 µs at
the median and 110-200 µs at p90 with a task, 27-34 and 61-67 eagerly).

Like a task, it runs on its own once started: whoever awaits it may go away (a caller
that awaits ``asyncio.shield`` of it, or a future of its own the coroutine settles, as the
group commit's callers do, is cancelled alone; awaited directly, as a task, the
cancellation reaches it). :meth:`Eager.cancel` cancels the coroutine at the future it
waits on, as ``Task.cancel`` does.

Not a task: ``asyncio.current_task()`` inside it is the caller's task during its first
step and ``None`` afterwards, and ``asyncio.all_tasks()`` does not list it; each step runs
in one copy of the context taken at the start, as a task's do.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Coroutine, Generator
from typing import Any, TypeVar

T = TypeVar("T")


class Eager(asyncio.Future[T]):
    """Runs ``coro`` now, up to its first wait, then step by step as the futures it awaits
    complete; done with the coroutine's result, exception or cancellation."""

    def __init__(self, coro: Coroutine[Any, Any, T]) -> None:
        super().__init__(loop=asyncio.get_running_loop())
        self._coro: Coroutine[Any, Any, T] | Generator[Any, None, T] = coro
        self._context = contextvars.copy_context()
        self._waiting: asyncio.Future[Any] | None = None  # what the coroutine awaits now
        self._cancel_next = False  # cancelled between two steps: thrown in at the next
        self._step(None)

    def cancel(self, msg: Any | None = None) -> bool:
        if self.done():
            return False
        if self._waiting is not None and self._waiting.cancel(msg):
            return True  # the coroutine sees CancelledError where it waits
        self._cancel_next = True  # between two steps (or its wait just ended): at the next
        return True

    def _step(self, error: BaseException | None) -> None:
        if self._cancel_next and error is None:
            self._cancel_next = False
            error = asyncio.CancelledError()
        try:
            if error is None:
                awaited = self._context.run(self._coro.send, None)
            else:
                awaited = self._context.run(self._coro.throw, error)
        except StopIteration as stop:
            super().set_result(stop.value)
        except asyncio.CancelledError:
            super().cancel()
        except (KeyboardInterrupt, SystemExit) as exc:
            super().set_exception(exc)
            raise
        except BaseException as exc:
            super().set_exception(exc)
        else:
            self._wait_for(awaited)

    def _wait_for(self, awaited: Any) -> None:
        if awaited is None:  # a bare yield (asyncio.sleep(0)): the next turn
            self.get_loop().call_soon(self._step, None)
        elif getattr(awaited, "_asyncio_future_blocking", False):
            awaited._asyncio_future_blocking = False
            self._waiting = awaited
            awaited.add_done_callback(self._wake)
        else:
            self.get_loop().call_soon(self._step, RuntimeError(
                f"an eager coroutine awaited {awaited!r}, not an asyncio future"))

    def _wake(self, future: asyncio.Future[Any]) -> None:
        self._waiting = None
        try:
            future.result()
        except BaseException as error:  # thrown into the coroutine, as a task does
            self._step(error)
        else:
            self._step(None)
