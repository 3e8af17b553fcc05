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

And one thing cheaper per frame: :meth:`LeanWebSocketProtocol.send_text_soon` takes a
text frame without the ASGI ``send`` chain (no task, no coroutine per frame) and writes
it with the other frames queued for the same socket in this loop iteration, one
``transport.write`` per socket (see :func:`text_sender`); the frame header is built here
(:func:`text_frame`) unless an extension or anything unusual needs websockets' own.
Anything sent the ASGI way (a close, a frame while the socket is paused) first writes
what is queued: frame order holds.

It relies on uvicorn internals (``queue``, ``writable``, ``request``, ``response``; for
frames sent straight ``conn``, ``transport``, ``loop`` and the handshake and close
flags) and on the ASGI ``send`` Starlette keeps inside its ``WebSocket``; the real-server
tests in tests/ops/test_serve.py go through all of them. This is the one module of app/
that touches other libraries' private parts, and only with the releases it was written
against (:data:`WRITTEN_FOR`): with any other, ``spider serve`` runs uvicorn's stock
protocol and every frame goes the ASGI way (tests/runtime/test_lean_ws.py).
"""

from __future__ import annotations

import asyncio
import logging
import struct
from importlib import metadata
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.protocol import State

from app.runtime.light_queue import LightQueue

log = logging.getLogger(__name__)

# The releases whose internals this module was written against and tested with.
WRITTEN_FOR = {"starlette": "1.10.0", "uvicorn": "0.54.0", "websockets": "17.4"}


def installed_versions() -> dict[str, str]:
    return {name: metadata.version(name) for name in WRITTEN_FOR}


def fits(versions: dict[str, str] | None = None) -> bool:
    """True when the installed releases are the ones this module was written against."""
    return (installed_versions() if versions is None else versions) == WRITTEN_FOR


FITS = fits()

# Sockets with frames queued by send_text_soon, by event loop, written by one callback per
# loop iteration for all of them (a callback per socket would cost about what it saves).
# By loop: a loop that stopped with a flush pending must not keep another from flushing.
_unflushed: dict[asyncio.AbstractEventLoop, list[LeanWebSocketProtocol]] = {}


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked text frame (RFC 6455 5.2): what a server sends, without
    websockets' generic serializer (a tenth of its cost; no extension is in use)."""
    size = len(payload)
    if size < 126:
        return struct.pack("!BB", 0x81, size) + payload
    if size < 65536:
        return struct.pack("!BBH", 0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload


def _flush_all(loop: asyncio.AbstractEventLoop) -> None:
    for protocol in _unflushed.pop(loop, ()):
        protocol.flush()


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
    unflushed: list[bytes] | None = None  # frames for the next flush, in order

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = LightQueue[Any]()  # type: ignore[assignment]
        self.writable = LightEvent()  # type: ignore[assignment]
        self.writable.set()

    def can_send_soon(self) -> bool:
        """An open, accepted connection whose transport takes more (not paused)."""
        return (self.handshake_complete and not self.close_sent and not self.disconnected
                and self.initial_response is None and self.writable.is_set())

    def send_text_soon(self, text: bytes, *, at_once: bool = False) -> bool:
        """Queue a text frame (UTF-8) for this iteration's flush; False if it must go the
        ASGI way (closed, closing, paused), which then says why. ``at_once``: written now
        with whatever is queued before it (a frame the client waits for: one loop turn
        sooner, at the cost of a write of its own)."""
        if not self.can_send_soon():
            return False
        conn = self.conn
        if (conn.state is State.OPEN and not conn.extensions and not conn.writes
                and not conn.expect_continuation_frame):
            output = [text_frame(text)]
        else:  # compression, or anything unusual: websockets' own way, or the ASGI one
            try:
                conn.send_text(text)
            except InvalidState:  # the client's close is in: the ASGI send reports it
                return False
            output = conn.data_to_send()
        if at_once:
            if self.unflushed is not None:
                output = self.unflushed + output  # the pending flush then finds nothing
                self.unflushed = None
            self._write(output)
            return True
        if self.unflushed is None:
            self.unflushed = output
            waiting = _unflushed.get(self.loop)
            if waiting is None:
                waiting = _unflushed[self.loop] = []
                self.loop.call_soon(_flush_all, self.loop)
            waiting.append(self)
        else:
            self.unflushed.extend(output)
        return True

    def flush(self) -> None:
        output, self.unflushed = self.unflushed, None
        if output:
            self._write(output)

    def _write(self, output: list[bytes]) -> None:
        if not self.disconnected and not self.transport.is_closing():
            try:
                self.transport.write(b"".join(output))
            except Exception:  # the reading side sees the broken connection
                log.debug("writing queued frames failed", exc_info=True)

    def connection_lost(self, exc: Exception | None) -> None:
        self.unflushed = None
        super().connection_lost(exc)

    async def send(self, message: Any) -> None:
        if self.unflushed is not None:
            self.flush()  # what send_text_soon queued goes first
        await super().send(message)
        if self.handshake_complete and getattr(self, "response", None) is not None:
            # Sent (or refused): uvicorn reads neither again. The request object itself
            # lives on in websockets' parser (a generator's local), so its headers, the
            # bulk of it, are emptied; the scope has its own copy.
            self.request.headers.clear()
            self.request = self.response = None  # type: ignore[assignment]


def text_sender(websocket: Any, *, fitting: bool | None = None) -> LeanWebSocketProtocol | None:
    """The lean protocol behind a Starlette ``WebSocket``, if that is what serves it.

    The WebSocket endpoint gets uvicorn's own bound ``send`` (app/ops/middleware.py
    WebSocketShortcut passes it on untouched); anything else (a test client, another
    server, a wrapping middleware, releases other than :data:`WRITTEN_FOR`) gets None
    and sends the ASGI way.
    """
    if not (FITS if fitting is None else fitting):
        return None
    send = getattr(websocket, "_send", None)  # Starlette keeps the ASGI send to itself
    protocol = getattr(send, "__self__", None)
    return protocol if isinstance(protocol, LeanWebSocketProtocol) else None
