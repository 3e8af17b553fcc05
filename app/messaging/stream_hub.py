"""All the event streams of this process (``app/messaging/player_streams.py``), and the
presence they imply: online = at least one open connection."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from app.messaging import channels
from app.messaging import stream_frames as frames
from app.messaging.outbox import Outbox
from app.messaging.player_streams import ACKS_REMEMBERED, EventStream
from app.messaging.pubsub import PubSub
from app.runtime.clock import SYSTEM_CLOCK, Clock
from app.runtime.keyed_lock import KeyedLock
from app.wire.base import Frame

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
        self._sessions: dict[int, EventStream] = {}  # where a player's new connections go
        # Streams a player's other tab resumed here while the player had connections on
        # another stream here (their process died): each tab keeps its own stream.
        self._apart: dict[int, list[EventStream]] = {}
        self._connecting = KeyedLock()  # players connecting right now
        self._presence_listeners: list[Callable[[int], Awaitable[None]]] = []
        self._swept_at = clock()

    def on_presence(self, listener: Callable[[int], Awaitable[None]]) -> None:
        self._presence_listeners.append(listener)

    def is_online(self, player_id: int) -> bool:
        return any(session.connections for session in self._all_of(player_id))

    def _all_of(self, player_id: int) -> list[EventStream]:
        home = self._sessions.get(player_id)
        return [*([home] if home is not None else []), *self._apart.get(player_id, ())]

    def _siblings(self, session: EventStream) -> list[EventStream]:
        if session.player_id not in self._apart:  # the usual case: one stream here
            return []
        return [other for other in self._all_of(session.player_id) if other is not session]

    def online_among(self, player_ids: list[int]) -> list[int]:
        return [player_id for player_id in player_ids if self.is_online(player_id)]

    async def session(self, player_id: int) -> EventStream:
        session = self._sessions.get(player_id)
        if session is None:
            session = EventStream(player_id, self._pubsub, self._clock, shared=self._shared,
                                  siblings=self._siblings)
            await session.follow(channels.player(player_id))
            self._sessions[player_id] = session
        return session

    async def connect(
        self, player_id: int, prelude: Callable[[EventStream], list[Frame]],
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
            was_online = self.is_online(player_id)
            session, claim = await self._resumed(player_id, *resume)
            session = session or await self.session(player_id)
            outbox = session.attach(prelude(session))
            if claim is not None:  # after the prelude: what was published meanwhile
                await session.follow(channels.player(player_id), claim.cursors.pop(
                    channels.player(player_id), None))
                for channel, since in claim.cursors.items():
                    await session.follow(channel, since)
        if not was_online:
            await self._presence_changed(player_id, online=True)
        return session, outbox

    async def _resumed(self, player_id: int, stream: str | None, last_event: int | None
                       ) -> tuple[EventStream | None, Claim | None]:
        """The session of ``stream`` here, or the stream another process wrote taken over
        (with its claim); (None, None) when it cannot be resumed (snapshots follow).

        A stream taken over while the player has connections here on another stream (two
        tabs, whose process died under one) stays apart: each tab keeps its own."""
        if self._shared is None or stream is None or last_event is None:
            return None, None
        for session in self._all_of(player_id):
            if session.stream == stream:
                return session, None
        claim = await self._shared.claim(stream, player_id, last_event,
                                         carried=ACKS_REMEMBERED)
        if claim is None:
            return None, None
        session = EventStream(player_id, self._pubsub, self._clock, shared=self._shared,
                              claim=(stream, claim), siblings=self._siblings)
        here = self._sessions.get(player_id)
        if here is not None and here.connections:
            self._apart.setdefault(player_id, []).append(session)
            return session, claim
        if here is not None:  # an idle session of ours: the moved stream replaces it
            await here.close()
        self._sessions[player_id] = session
        return session, claim

    def _lost(self, stream: str) -> None:
        """Another process took this stream over: ours writes nothing more. Its sockets
        (a player connected to two processes) are closed; they resume where it went."""
        for player_id, session in list(self._sessions.items()):
            if session.stream == stream:
                del self._sessions[player_id]
                self._close_later(session)
        for apart in list(self._apart.values()):
            for session in [s for s in apart if s.stream == stream]:
                self._forget_apart(session)
                self._close_later(session)

    def _close_later(self, session: EventStream) -> None:
        task = asyncio.create_task(session.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def disconnect(self, session: EventStream, outbox: Outbox) -> None:
        session.detach(outbox)
        if session.connections:
            return
        if session in self._apart.get(session.player_id, ()):
            # Kept in Redis: its tab may resume it here (claimed again) or anywhere.
            self._forget_apart(session)
            await session.close()
        if not self.is_online(session.player_id):
            await self._presence_changed(session.player_id, online=False)

    def _forget_apart(self, session: EventStream) -> None:
        apart = self._apart[session.player_id]
        apart.remove(session)
        if not apart:
            del self._apart[session.player_id]

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
        for session in [*self._sessions.values(), *(s for a in self._apart.values() for s in a)]:
            await session.close()
        self._sessions.clear()
        self._apart.clear()
