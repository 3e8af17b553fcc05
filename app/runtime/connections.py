"""The open WebSocket connections of this process: counted, capped per player, drained.

The WebSocket handler wraps each session in `registry.track(...)`; that keeps the
connections gauge honest, enforces connections per player and lets shutdown close
what is still open.
"""

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator, Hashable
from typing import Protocol

from app.errors import RateLimited
from app.runtime import metrics


class Closable(Protocol):
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class TooManyConnections(RateLimited):
    """A player already holds the allowed number of connections on this process."""

    code = "too_many_connections"

    def __init__(self, limit: int) -> None:
        super().__init__(f"at most {limit} simultaneous connections per player")
        self.limit = limit


class ConnectionRegistry:
    def __init__(self, *, max_per_player: int) -> None:
        self.max_per_player = max_per_player
        self._by_player: dict[Hashable, set[Closable]] = defaultdict(set)
        self._empty = asyncio.Event()
        self._empty.set()

    def __len__(self) -> int:
        return sum(len(sockets) for sockets in self._by_player.values())

    def count(self, player: Hashable) -> int:
        return len(self._by_player.get(player, ()))

    def admit(self, websocket: Closable, *, player: Hashable) -> None:
        """Take a slot for the session; raises TooManyConnections when none is left.

        Every admit is paired with a `release` (in a finally), or use `track`.
        """
        sockets = self._by_player[player]
        if len(sockets) >= self.max_per_player:
            if not sockets:
                del self._by_player[player]
            raise TooManyConnections(self.max_per_player)
        sockets.add(websocket)
        self._empty.clear()
        metrics.CONNECTIONS.inc()

    def release(self, websocket: Closable, *, player: Hashable) -> None:
        sockets = self._by_player.get(player)
        if sockets is None or websocket not in sockets:
            return
        sockets.discard(websocket)
        if not sockets:
            del self._by_player[player]
        metrics.CONNECTIONS.dec()
        if not self._by_player:
            self._empty.set()

    @contextlib.asynccontextmanager
    async def track(self, websocket: Closable, *, player: Hashable) -> AsyncIterator[None]:
        """`admit` for the duration of the block."""
        self.admit(websocket, player=player)
        try:
            yield
        finally:
            self.release(websocket, player=player)

    async def close_all(self, *, code: int = 1012, reason: str = "server restarting") -> None:
        """Ask every open session to close (1012: come back shortly, to another process)."""
        sockets = [s for group in self._by_player.values() for s in group]
        for websocket in sockets:
            with contextlib.suppress(Exception):  # already closed or broken: fine
                await websocket.close(code=code, reason=reason)

    async def drain(self, *, timeout: float) -> bool:
        """Wait until every session has ended; False if some outlived the timeout."""
        try:
            await asyncio.wait_for(self._empty.wait(), timeout=timeout)
        except TimeoutError:
            return False
        return True
