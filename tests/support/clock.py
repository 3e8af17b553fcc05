"""A clock the test moves by hand: pass it wherever the code takes a `Clock`."""

from __future__ import annotations

import asyncio
import heapq
import itertools

from app.runtime.clock import Clock


class FakeClock(Clock):
    """A clock a test moves by hand: ``await clock.advance(s)`` wakes whoever waits for a
    moment now reached, in the order of their moments. Setting ``now`` moves the time
    without waking anybody (what a process sees after being down a while)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep_until(self, moment: float) -> None:
        if moment <= self.now:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (moment, next(self._order), woken))
        await woken

    @property
    def sleepers(self) -> int:
        """How many waits are pending (cancelled ones included until the time passes)."""
        return sum(1 for _, _, woken in self._sleepers if not woken.done())

    async def advance(self, seconds: float) -> None:
        """Move the time on and let every task whose moment came run until it waits again."""
        self.now += seconds
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, _, woken = heapq.heappop(self._sleepers)
            if not woken.done():
                woken.set_result(None)
        await settle()


async def settle(rounds: int = 20) -> None:
    """Let ready tasks run: a few passes of the event loop (each wakes the next awaiter)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
