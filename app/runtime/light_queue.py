"""An unbounded queue for one consumer that costs next to nothing while empty.

asyncio.Queue allocates three deques and an event up front (~3 KB); a server holds one
per connection (uvicorn's receive queue) and one per subscription (every online player's
``player:{id}`` channel), and nearly all of them are empty nearly all the time. Here the
buffer exists only while items wait, and the one consumer waits on a bare future.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class LightQueue(Generic[T]):
    """The part of asyncio.Queue in use here: unbounded, one consumer at a time."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] | None = None
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        if self._items is None:
            self._items = deque()
        self._items.append(item)
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        while not self._items:
            waiter = self._waiter
            if waiter is None or waiter.done():
                waiter = self._waiter = asyncio.get_running_loop().create_future()
            await waiter  # cancelled with a cancelled get: the next get makes a new one
        item = self._items.popleft()
        if not self._items:
            self._items = None
        return item

    def take_all(self) -> list[T]:
        """Everything waiting, oldest first, leaving the queue empty."""
        items, self._items = self._items, None
        return list(items or ())

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items or ())
