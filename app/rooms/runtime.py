"""The rooms layer of one process, assembled once: pubsub, sessions, duels, storage.

``app.api.ws`` builds it in its lifespan and keeps it on ``app.state.rooms``; REST
services reach the same object (e.g. ``request.app.state.rooms.pubsub`` for lobby news).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from app.rooms.duel import Clock, DuelService
from app.rooms.pubsub import PubSub
from app.rooms.sessions import SessionHub
from app.rooms.store import DuelStore

Authenticate = Callable[[str], Awaitable[int]]


@dataclass
class Rooms:
    pubsub: PubSub
    sessions: SessionHub
    duels: DuelService
    authenticate: Authenticate
    on_close: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    async def close(self) -> None:
        await self.duels.close()
        await self.sessions.close()
        await self.pubsub.close()
        for closer in self.on_close:
            await closer()


def build_rooms(
    *,
    pubsub: PubSub,
    store: DuelStore,
    authenticate: Authenticate,
    allow_test_layouts: bool,
    clock: Clock | None = None,
    peers: bool = False,
) -> Rooms:
    sessions = SessionHub(pubsub)
    duels = DuelService(
        store=store,
        pubsub=pubsub,
        is_online=sessions.is_online,
        allow_test_layouts=allow_test_layouts,
        peers=peers,
        **({"clock": clock} if clock is not None else {}),
    )
    sessions.on_presence(duels.online_changed)
    return Rooms(pubsub, sessions, duels, authenticate)
