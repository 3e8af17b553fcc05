"""The "game/match settled" domain event: one value per game or match that ended.

Services publish it after their commit; listeners (badges) subscribe. A listener's
failure is logged and never undoes the settlement (docs/solo-and-daily.md section 6).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

log = logging.getLogger(__name__)

SettledKind = Literal["solo", "daily", "duel"]


@dataclass(frozen=True, slots=True)
class Settled:
    """``kind`` solo/daily: ``id`` is a solo game; duel: a match. ``player_ids``: who played."""

    kind: SettledKind
    id: int
    player_ids: tuple[int, ...]
    ended_at: datetime


Listener = Callable[[Settled], Awaitable[None]]


class SettledEvents:
    """Subscribers of the settled event; each runs in a task of its own after a publish."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._running: set[asyncio.Task[None]] = set()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def publish(self, event: Settled) -> None:
        # After the caller's answer is out: a badge frame follows the game's last frame.
        for listener in self._listeners:
            task = asyncio.create_task(self._run(listener, event))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    @staticmethod
    async def _run(listener: Listener, event: Settled) -> None:
        try:
            await listener(event)
        except Exception:
            log.exception("a settled-event listener failed for %s %d", event.kind, event.id)

    async def idle(self) -> None:
        """Wait for the listeners started so far (tests, shutdown)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
