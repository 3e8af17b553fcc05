"""The frames waiting for one connection (`Outbox`), sent in order; a player's event
stream (`app.messaging.player_streams.EventStream`) puts every event in each of its
connections' outboxes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from app.wire.base import Frame

log = logging.getLogger("app.messaging.player_streams")

OUTBOX_LIMIT = 5000

Deliver = Callable[[Frame | None], Awaitable[None]]
# The frame, its JSON if already made, and whether to write it at once (see Outbox.put).
SendNow = Callable[[Frame, bytes | None, bool], bool]


class Outbox:
    """The frames waiting for one connection, sent in order by the connection's ``deliver``.

    No task waits on an idle connection: the first frame put starts a drain task, which
    sends until nothing is left and then ends (10,000 idle connections, 10,000 tasks
    fewer). ``None`` asks the connection to close: after it nothing more is sent.

    With a ``send_now`` (the connection can take a frame without waiting), a frame put
    while nothing waits before it goes straight to it: no task, no await, per frame. When
    ``send_now`` declines (paused, closing), the frame waits its turn as above.
    """

    __slots__ = ("_deliver", "_done", "_drain", "_pending", "_send_now", "close_code",
                 "overflowed")

    def __init__(self) -> None:
        self._pending: deque[Frame | None] | None = None  # created with the first frame
        self._deliver: Deliver | None = None
        self._send_now: SendNow | None = None
        self._drain: asyncio.Task[None] | None = None
        self._done = False  # closed, stopped or broken: nothing more goes out
        self.overflowed = False
        self.close_code = 1000  # what ``deliver`` closes with when it gets ``None``

    @property
    def pending(self) -> list[Frame | None]:
        """Frames put and not yet handed to ``deliver``."""
        return list(self._pending or ())

    def put(self, frame: Frame | None, encoded: bytes | None = None, *,
            at_once: bool = False) -> None:
        """Queue ``frame``; ``encoded``, its JSON if the caller already made it, spares
        making it again when the frame goes straight out. ``at_once``: a frame someone
        waits for (the answer to an action) is written now, with what is queued before
        it, rather than with the rest of this loop turn's frames one turn later."""
        if self._done or self.overflowed:  # an overflow has queued the close already
            return
        if (frame is not None and self._send_now is not None and self._drain is None
                and not self._pending and self._send_now(frame, encoded, at_once)):
            return
        pending = self._pending
        if pending is None:
            pending = self._pending = deque()
        if len(pending) >= OUTBOX_LIMIT:
            # A client that reads nothing gets cut off instead of filling memory.
            self.overflowed = True
            frame = None
        pending.append(frame)
        if self._drain is None and self._deliver is not None:
            self._drain = asyncio.create_task(self._drain_pending(self._deliver))

    def close(self, code: int) -> None:
        """Close the connection with ``code`` once every frame put before has gone: a
        refusal that ends a connection is still said (``await flushed()`` to wait)."""
        if not (self._done or self.overflowed):
            self.close_code = code
        self.put(None)

    async def flushed(self) -> None:
        """Wait until what was put has been handed to ``deliver`` (or the send broke)."""
        drain = self._drain
        if drain is not None and drain is not asyncio.current_task():
            await asyncio.shield(drain)

    def start(self, deliver: Deliver, send_now: SendNow | None = None) -> None:
        """Send what is waiting, and from now on every frame as it is put."""
        self._deliver = deliver
        self._send_now = send_now
        if self._pending and self._drain is None and not self._done:
            self._drain = asyncio.create_task(self._drain_pending(deliver))

    async def stop(self) -> None:
        """The connection is gone: drop what is waiting and end a send in progress."""
        self._done = True
        self._pending = None
        drain, self._drain = self._drain, None
        if drain is not None and drain is not asyncio.current_task():
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await drain

    async def _drain_pending(self, deliver: Deliver) -> None:
        try:
            while self._pending and not self._done:
                frame = self._pending.popleft()
                if frame is None:
                    self._done = True
                await deliver(frame)
        except Exception:
            # The socket broke under a send: the reading side sees the disconnect and
            # ends the connection; nothing more is worth sending here.
            self._done = True
            log.debug("outbox stopped: sending failed", exc_info=True)
        finally:
            if self._drain is asyncio.current_task():
                self._drain = None
            if not self._pending or self._done:
                self._pending = None  # an idle connection keeps no buffer
