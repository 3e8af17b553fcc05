"""The rooms layer of one process, assembled once: pubsub, event streams, duels, storage.

``app/main.py`` builds it in the app's lifespan and keeps it on ``app.state.rooms``; REST
services reach the same object (e.g. ``request.app.state.rooms.pubsub`` for lobby news).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from app.messaging.pubsub import PubSub
from app.messaging.stream_hub import StreamHub
from app.rooms.duel import DuelService
from app.rooms.store import DuelStore
from app.rooms.sweeper import OverdueSweeper
from app.runtime.clock import SYSTEM_CLOCK, Clock

Authenticate = Callable[[str], Awaitable[int]]
FriendsOf = Callable[[int], Awaitable[list[int]]]
RESTORE_RETRY_SECONDS = 5.0

log = logging.getLogger(__name__)


@dataclass
class Rooms:
    pubsub: PubSub
    streams: StreamHub
    duels: DuelService
    authenticate: Authenticate
    friends_of: FriendsOf
    on_close: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    sweeper: OverdueSweeper | None = None
    clock: Clock = SYSTEM_CLOCK  # paces the restore retries
    _restorer: asyncio.Task[None] | None = None

    def start_restoring(self, retry_seconds: float = RESTORE_RETRY_SECONDS) -> None:
        """Rebuild unfinished matches (clocks, time-outs) now, retrying until it works."""
        self._restorer = asyncio.create_task(self._restore(retry_seconds))

    async def _restore(self, retry_seconds: float) -> None:
        while True:
            try:
                restored = await self.duels.restore()
            except Exception:
                log.exception("restoring unfinished matches failed; retrying in %s s",
                              retry_seconds)
                await self.clock.sleep(retry_seconds)
            else:
                log.info("rooms ready: %d unfinished match(es) restored", restored)
                return

    async def close(self) -> None:
        if self.sweeper is not None:  # first: a sweep must not load matches into a closed service
            await self.sweeper.stop()
        if self._restorer is not None:
            self._restorer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restorer
        await self.duels.close()
        await self.streams.close()
        await self.pubsub.close()
        for closer in self.on_close:
            await closer()


def build_rooms(
    *,
    pubsub: PubSub,
    store: DuelStore,
    authenticate: Authenticate,
    friends_of: FriendsOf,
    clock: Clock | None = None,
    peers: bool = False,
    streams: StreamHub | None = None,
    sweep_every: float = 0.0,
) -> Rooms:
    """``streams``: a hub with shared presence (several processes); ``sweep_every``:
    seconds between two sweeps for overdue games (app/rooms/sweeper.py), 0 for none."""
    if streams is None:
        streams = StreamHub(pubsub, clock or SYSTEM_CLOCK)
    duels = DuelService(
        store=store,
        pubsub=pubsub,
        is_online=streams.is_online,
        peers=peers,
        **({"clock": clock} if clock is not None else {}),
    )
    streams.on_presence(duels.online_changed)
    rooms = Rooms(pubsub, streams, duels, authenticate, friends_of, clock=clock or SYSTEM_CLOCK)
    if sweep_every > 0:
        rooms.sweeper = OverdueSweeper(
            store=store, duels=duels, every=sweep_every,
            **({"clock": clock} if clock is not None else {}),
        )
        rooms.sweeper.start()
    return rooms
