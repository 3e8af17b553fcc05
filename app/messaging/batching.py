"""Send in batches: whatever is queued while one batch is being sent goes out together in
the next, so a burst costs one round trip per batch rather than one per item."""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

Item = TypeVar("Item")


class Batches(Generic[Item]):
    """A queue drained by at most one task, in order, one ``send(batch)`` at a time."""

    __slots__ = ("_queue", "_send", "running")

    def __init__(self, send: Callable[[list[Item]], Awaitable[None]]) -> None:
        self._send = send
        self._queue: list[Item] = []
        self.running: asyncio.Task[None] | None = None  # the sender, while there is work

    def add(self, item: Item) -> None:
        self._queue.append(item)
        if self.running is None:
            self.running = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                await self._send(batch)
        finally:
            self.running = None
