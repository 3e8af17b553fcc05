"""uvicorn's websockets-sansio protocol, holding less per idle connection.

Selected by ``ws_implementation = "lean"`` (the default; see app/ops/serve.py). The
protocol is uvicorn's own, unchanged on the wire, with three things lighter, together
~9 KB of the ~25 KB an idle authenticated connection costs:

- the handshake request and response (headers and all) are dropped once the handshake
  is sent: uvicorn keeps them for the life of the connection and never reads them again
  (the scope has its own copy of the request headers);
- the ASGI receive queue is a deque and one future instead of an ``asyncio.Queue``
  (three deques and an Event, ~3 KB even when empty);
- the "writable" flag is an event that allocates its waiter list only when someone
  waits (asyncio.Event allocates a deque up front).

It relies on uvicorn internals (``queue``, ``writable``, ``request``, ``response``);
tests/ops/test_serve.py checks that they are still there.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from app.ops.light_queue import LightQueue


class LightEvent:
    """asyncio.Event without the up-front deque: set most of the time, rarely awaited."""

    __slots__ = ("_value", "_waiters")

    def __init__(self) -> None:
        self._value = False
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._value

    def set(self) -> None:
        if not self._value:
            self._value = True
            waiters, self._waiters = self._waiters, None
            for waiter in waiters or ():
                if not waiter.done():
                    waiter.set_result(None)

    def clear(self) -> None:
        self._value = False

    async def wait(self) -> None:
        if self._value:
            return
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = LightQueue[Any]()  # type: ignore[assignment]
        self.writable = LightEvent()  # type: ignore[assignment]
        self.writable.set()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete and getattr(self, "response", None) is not None:
            # Sent (or refused): uvicorn reads neither again. The request object itself
            # lives on in websockets' parser (a generator's local), so its headers, the
            # bulk of it, are emptied; the scope has its own copy.
            self.request.headers.clear()
            self.request = self.response = None  # type: ignore[assignment]
