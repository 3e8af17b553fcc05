"""All the event streams of this process (``app/messaging/player_streams.py``), and the
presence they imply: online = at least one open connection."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from app.messaging import channels
from app.messaging import stream_frames as frames
from app.messaging.outbox import Outbox, Payload
from app.messaging.player_streams import EventStream
from app.messaging.pubsub import PubSub
from app.runtime.clock import SYSTEM_CLOCK, Clock
from app.runtime.keyed_lock import KeyedLock

if TYPE_CHECKING:  # redis is imported only with the redis backend
    from app.messaging.redis_streams import Claim, RedisEventStreams

IDLE_SESSION_SECONDS = 15 * 60
# A sweep walks every session: at most once a minute, not on every connect (10,000
# connections arriving at once would otherwise cost 50 million steps).
SWEEP_EVERY_SECONDS = 60.0


class StreamHub:
    """All sessions of this process, and the presence they imply."""

    def __init__(self, pubsub: PubSub, clock: Clock = SYSTEM_CLOCK, *,
                 shared: RedisEventStreams | None = None) -> None:
        self._pubsub = pubsub
        self._clock = clock
        self._shared = shared  # players' streams in Redis: resumable on any process
        if shared is not None:
            shared.on_lost(self._lost)
        self._closing: set[asyncio.Task[None]] = set()
        self._sessions: dict[int, EventStream] = {}
        self._connecting = KeyedLock()  # players connecting right now
        self._presence_listeners: list[Callable[[int], Awaitable[None]]] = []
        self._swept_at = clock()

    def on_presence(self, listener: Callable[[int], Awaitable[None]]) -> None:
        self._presence_listeners.append(listener)

    def is_online(self, player_id: int) -> bool:
        session = self._sessions.get(player_id)
        return session is not None and session.connections > 0

    def online_among(self, player_ids: list[int]) -> list[int]:
        return [player_id for player_id in player_ids if self.is_online(player_id)]

    async def session(self, player_id: int) -> EventStream:
        session = self._sessions.get(player_id)
        if session is None:
            session = EventStream(player_id, self._pubsub, self._clock, shared=self._shared)
            await session.follow(channels.player(player_id))
            self._sessions[player_id] = session
        return session

    async def connect(
        self, player_id: int, prelude: Callable[[EventStream], list[Payload]],
        resume: tuple[str | None, int | None] = (None, None),
    ) -> tuple[EventStream, Outbox]:
        """A new connection of ``player_id``; ``resume``: the (stream, last_event) it
        gave, which may be a stream another process wrote (taken over here)."""
        if self._clock() - self._swept_at >= SWEEP_EVERY_SECONDS:
            self._swept_at = self._clock()
            await self.sweep()
        # One connection of a player at a time from here to its outbox: two tabs coming
        # back at once (their process died) would otherwise each make a session of the
        # stream they shared, and each tab would get only its own half of the events.
        async with self._connecting.hold(player_id):
            claim = await self._take_over(player_id, *resume)
            session = await self.session(player_id)
            was_online = session.connections > 0
            outbox = session.attach(prelude(session))
            if claim is not None:  # after the prelude: what was published meanwhile
                await session.follow(channels.player(player_id), claim.cursors.pop(
                    channels.player(player_id), None))
                for channel, since in claim.cursors.items():
                    await session.follow(channel, since)
        if not was_online:
            await self._presence_changed(player_id, online=True)
        return session, outbox

    async def _take_over(self, player_id: int, stream: str | None, last_event: int | None
                         ) -> Claim | None:
        """The stream another process wrote, made this process's session of the player.

        Not when the stream is ours already, nor when the player has connections here on
        another stream (they keep theirs; this one gets snapshots, as before)."""
        here = self._sessions.get(player_id)
        if (self._shared is None or stream is None or last_event is None
                or (here is not None and (here.stream == stream or here.connections))):
            return None
        claim = await self._shared.claim(stream, player_id, last_event)
        if claim is None:
            return None
        if here is not None:  # an idle session of ours: the moved stream replaces it
            del self._sessions[player_id]
            await here.close()
        self._sessions[player_id] = EventStream(player_id, self._pubsub, self._clock,
                                                shared=self._shared, claim=(stream, claim))
        return claim

    def _lost(self, stream: str) -> None:
        """Another process took this stream over: ours writes nothing more. Its sockets
        (a player connected to two processes) are closed; they resume where it went."""
        for player_id, session in list(self._sessions.items()):
            if session.stream == stream:
                del self._sessions[player_id]
                task = asyncio.create_task(session.close())
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)

    async def disconnect(self, session: EventStream, outbox: Outbox) -> None:
        session.detach(outbox)
        if session.connections == 0:
            await self._presence_changed(session.player_id, online=False)

    async def _presence_changed(self, player_id: int, *, online: bool) -> None:
        await self._pubsub.publish(
            channels.presence(player_id),
            frames.presence(player_id, online),
        )
        for listener in self._presence_listeners:
            await listener(player_id)

    async def sweep(self, idle_seconds: float = IDLE_SESSION_SECONDS) -> None:
        """Forget sessions nobody has been connected to for a long time."""
        now = self._clock()
        for player_id, session in list(self._sessions.items()):
            if session.connections == 0 and now - session.idle_since > idle_seconds:
                del self._sessions[player_id]
                await session.close()

    async def close(self) -> None:
        for session in self._sessions.values():
            await session.close()
        self._sessions.clear()
