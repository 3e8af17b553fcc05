"""The one clock of the live layer: what time it is, and waiting until a moment.

Time-outs, table expiries, sweeps, presence heartbeats, pub/sub reconnect retries and idle
sessions read and wait on a :class:`Clock` handed to them, never on ``time`` or
``asyncio.sleep`` themselves, so a test drives them with a clock it moves by hand
(tests/support/clock.py) instead of waiting for real seconds. Moments are POSIX seconds
(they are stored: a game's start, its end).
"""

from __future__ import annotations

import asyncio
import time


class Clock:
    """The real clock: wall-clock seconds, and the event loop's sleep."""

    # The builtin itself, not a method calling it: read several times per action.
    __call__ = staticmethod(time.time)

    async def sleep_until(self, moment: float) -> None:
        await asyncio.sleep(max(0.0, moment - self()))

    async def sleep(self, seconds: float) -> None:
        await self.sleep_until(self() + seconds)


SYSTEM_CLOCK = Clock()
