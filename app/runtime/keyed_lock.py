"""One asyncio lock per key (a player, say), kept only while someone holds or waits
for it: a process that saw a million players keeps no million locks."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable


class KeyedLock:
    __slots__ = ("_locks",)

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}  # lock, holders + waiters

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def held(self, key: Hashable) -> bool:
        """Whether someone holds or waits for ``key``'s lock now."""
        return key in self._locks

    def __len__(self) -> int:
        """How many keys are held or waited for now."""
        return len(self._locks)
