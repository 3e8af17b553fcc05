"""The first frame of a connection, without a server: what a silent client is told."""

import asyncio
from typing import Any

import pytest

from app.api import ws


class SilentSocket:
    """A client that connects and then says nothing at all."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()  # never
        raise AssertionError("unreachable")

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


async def test_a_client_silent_past_the_hello_timeout_is_told_only_that(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ws, "HELLO_TIMEOUT_SECONDS", 0.01)
    socket = SilentSocket()
    assert await ws._hello(socket) is None  # type: ignore[arg-type]
    assert len(socket.sent) == 1, socket.sent  # no "EOF while parsing" first
    assert '"code":"hello_first"' in socket.sent[0] and "0.01 s" in socket.sent[0]
    assert socket.closed == ws.CLOSE_PROTOCOL
