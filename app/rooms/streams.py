"""A player's event stream: every server event to a client, numbered, buffered, resumable.

One :class:`EventStream` per player and process. It outlives connections: while a player is
disconnected its channel subscriptions keep filling the buffer, so a client that comes
back with ``(stream, last_event)`` receives exactly what it missed. When the buffer no
longer reaches back that far (or the server restarted: a new ``stream``), the client gets
fresh snapshots instead. Presence (online = at least one open connection) lives here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from pydantic_core import to_json

from app.rooms import channels, frames
from app.rooms.clock import SYSTEM_CLOCK, Clock
from app.rooms.pubsub import PubSub, QueuedSubscription, Subscription

Payload = dict[str, Any]
log = logging.getLogger(__name__)

BUFFER_EVENTS = 2000
OUTBOX_LIMIT = 5000
IDLE_SESSION_SECONDS = 15 * 60
# A sweep walks every session: at most once a minute, not on every connect (10,000
# connections arriving at once would otherwise cost 50 million steps).
SWEEP_EVERY_SECONDS = 60.0
MATCH_CHANNEL_GRACE_SECONDS = 5.0


Deliver = Callable[[Payload | None], Awaitable[None]]
SendNow = Callable[[Payload, bytes | None], bool]  # the frame, its JSON if already made


class Outbox:
    """The frames waiting for one connection, sent in order by the connection's ``deliver``.

    No task waits on an idle connection: the first frame put starts a drain task, which
    sends until nothing is left and then ends (10,000 idle connections, 10,000 tasks
    fewer). ``None`` asks the connection to close: after it nothing more is sent.

    With a ``send_now`` (the connection can take a frame without waiting), a frame put
    while nothing waits before it goes straight to it: no task, no await, per frame. When
    ``send_now`` declines (paused, closing), the frame waits its turn as above.
    """

    __slots__ = ("_deliver", "_done", "_drain", "_pending", "_send_now", "overflowed")

    def __init__(self) -> None:
        self._pending: deque[Payload | None] | None = None  # created with the first frame
        self._deliver: Deliver | None = None
        self._send_now: SendNow | None = None
        self._drain: asyncio.Task[None] | None = None
        self._done = False  # closed, stopped or broken: nothing more goes out
        self.overflowed = False

    @property
    def pending(self) -> list[Payload | None]:
        """Frames put and not yet handed to ``deliver``."""
        return list(self._pending or ())

    def put(self, frame: Payload | None, encoded: bytes | None = None) -> None:
        """Queue ``frame``; ``encoded``, its JSON if the caller already made it, spares
        making it again when the frame goes straight out."""
        if self._done or self.overflowed:  # an overflow has queued the close already
            return
        if (frame is not None and self._send_now is not None and self._drain is None
                and not self._pending and self._send_now(frame, encoded)):
            return
        pending = self._pending
        if pending is None:
            pending = self._pending = deque()
        if len(pending) >= OUTBOX_LIMIT:
            # A client that reads nothing gets cut off instead of filling memory.
            self.overflowed = True
            frame = None
        pending.append(frame)
        if self._drain is None and self._deliver is not None:
            self._drain = asyncio.create_task(self._drain_pending(self._deliver))

    def start(self, deliver: Deliver, send_now: SendNow | None = None) -> None:
        """Send what is waiting, and from now on every frame as it is put."""
        self._deliver = deliver
        self._send_now = send_now
        if self._pending and self._drain is None and not self._done:
            self._drain = asyncio.create_task(self._drain_pending(deliver))

    async def stop(self) -> None:
        """The connection is gone: drop what is waiting and end a send in progress."""
        self._done = True
        self._pending = None
        drain, self._drain = self._drain, None
        if drain is not None and drain is not asyncio.current_task():
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await drain

    async def _drain_pending(self, deliver: Deliver) -> None:
        try:
            while self._pending and not self._done:
                frame = self._pending.popleft()
                if frame is None:
                    self._done = True
                await deliver(frame)
        except Exception:
            # The socket broke under a send: the reading side sees the disconnect and
            # ends the connection; nothing more is worth sending here.
            self._done = True
            log.debug("outbox stopped: sending failed", exc_info=True)
        finally:
            if self._drain is asyncio.current_task():
                self._drain = None
            if not self._pending or self._done:
                self._pending = None  # an idle connection keeps no buffer


class EventStream:
    # One per player online (10,000 idle connections: 10,000 sessions), so no __dict__,
    # and the event buffer and chores set only once something needs them.
    __slots__ = (
        "_buffer",
        "_chores",
        "_clock",
        "_outboxes",
        "_pubsub",
        "_pumps",
        "idle_since",
        "last_n",
        "player_id",
        "stream",
    )

    def __init__(self, player_id: int, pubsub: PubSub, clock: Clock = SYSTEM_CLOCK) -> None:
        self.player_id = player_id
        self.stream = secrets.token_hex(8)
        self.last_n = 0
        self._clock = clock
        self.idle_since = clock()
        self._pubsub = pubsub
        # Kept for resuming as (n, JSON bytes): bytes and a tuple of atoms are nothing the
        # garbage collector walks, where a frame's dicts and lists (its view, events) are
        # a dozen containers per action that every collection would walk for as long as
        # the buffer holds them (2,000 per player), and they take more memory as well.
        self._buffer: deque[tuple[int, bytes]] | None = None
        self._outboxes: set[Outbox] = set()
        self._pumps: dict[str, tuple[Subscription, asyncio.Task[None] | None]] = {}
        self._chores: set[asyncio.Task[None]] | None = None

    @property
    def connections(self) -> int:
        return len(self._outboxes)

    def emit(self, payload: Payload) -> Payload:
        """Number an event, keep it for resuming, and send it to every open connection."""
        self.last_n += 1
        frame = {**payload, "n": self.last_n}
        if self._buffer is None:
            self._buffer = deque(maxlen=BUFFER_EVENTS)
        encoded = to_json(frame)  # once, for the buffer and every connection
        self._buffer.append((self.last_n, encoded))
        for outbox in self._outboxes:
            outbox.put(frame, encoded)
        if payload.get("type") == "match_result":
            self._later(self._leave_match(int(payload["match_id"])))
        return frame

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        if self._chores is None:
            self._chores = set()
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _leave_match(self, match_id: int) -> None:
        """A settled match sends nothing more: drop its channels once stragglers are in."""
        await self._clock.sleep(MATCH_CHANNEL_GRACE_SECONDS)
        await self.unfollow(channels.match(match_id))
        await self.unfollow_matching(f"watch:{match_id}:")

    def missed_since(self, stream: str | None, last_event: int | None) -> list[Payload] | None:
        """Events after ``last_event`` on ``stream``; None when they cannot all be replayed."""
        if stream != self.stream or last_event is None or last_event > self.last_n:
            return None
        buffer = self._buffer or ()
        oldest = buffer[0][0] if buffer else self.last_n + 1
        if last_event + 1 < oldest:
            return None
        return [json.loads(encoded) for n, encoded in buffer if n > last_event]

    def attach(self, prelude: list[Payload]) -> Outbox:
        """A new connection's outbox, starting with ``prelude`` (welcome, missed events).

        Synchronous on purpose: no event can slip in between the prelude and live frames.
        """
        outbox = Outbox()
        for frame in prelude:
            outbox.put(frame)
        self._outboxes.add(outbox)
        return outbox

    def detach(self, outbox: Outbox) -> None:
        self._outboxes.discard(outbox)
        if not self._outboxes:
            self.idle_since = self._clock()

    def following(self, channel: str) -> bool:
        return channel in self._pumps

    async def follow(self, channel: str) -> None:
        if channel in self._pumps:
            return
        subscription = await self._pubsub.subscribe(channel)
        if isinstance(subscription, QueuedSubscription):
            # Handed over, not pumped: emitting is synchronous, so no task per channel
            # waits on a queue and none is woken per message (two per action).
            subscription.forward(self._take)
            self._pumps[channel] = (subscription, None)
        else:
            self._pumps[channel] = (subscription, asyncio.create_task(self._pump(subscription)))

    async def unfollow(self, channel: str) -> None:
        entry = self._pumps.pop(channel, None)
        if entry is not None:
            subscription, task = entry
            await subscription.close()
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def unfollow_matching(self, prefix: str) -> None:
        for channel in [c for c in self._pumps if c.startswith(prefix)]:
            await self.unfollow(channel)

    async def _pump(self, subscription: Subscription) -> None:
        async for message in subscription:
            self._take(message)

    def _take(self, message: Payload) -> None:
        if not _own_progress(message, self.player_id):
            self.emit(message)

    async def close(self) -> None:
        for chore in list(self._chores or ()):
            chore.cancel()
        for channel in list(self._pumps):
            await self.unfollow(channel)
        for outbox in self._outboxes:
            outbox.put(None)
        self._outboxes.clear()


def _own_progress(message: Payload, player_id: int) -> bool:
    """A progress line about this very player: their acks and snapshots already say it
    (score, status, time left), so it would be a third frame per action for nothing."""
    if message.get("type") != "progress":
        return False
    progress = message.get("progress")
    return isinstance(progress, dict) and progress.get("player_id") == player_id


class StreamHub:
    """All sessions of this process, and the presence they imply."""

    def __init__(self, pubsub: PubSub, clock: Clock = SYSTEM_CLOCK) -> None:
        self._pubsub = pubsub
        self._clock = clock
        self._sessions: dict[int, EventStream] = {}
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
            session = EventStream(player_id, self._pubsub, self._clock)
            await session.follow(channels.player(player_id))
            self._sessions[player_id] = session
        return session

    async def connect(
        self, player_id: int, prelude: Callable[[EventStream], list[Payload]]
    ) -> tuple[EventStream, Outbox]:
        if self._clock() - self._swept_at >= SWEEP_EVERY_SECONDS:
            self._swept_at = self._clock()
            await self.sweep()
        session = await self.session(player_id)
        was_online = session.connections > 0
        outbox = session.attach(prelude(session))
        if not was_online:
            await self._presence_changed(player_id, online=True)
        return session, outbox

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
