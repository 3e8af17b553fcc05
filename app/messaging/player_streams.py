"""A player's event stream: every server event to a client, numbered, buffered, resumable.

One :class:`EventStream` per player and process. It outlives connections: while a player is
disconnected its channel subscriptions keep filling the buffer, so a client that comes
back with ``(stream, last_event)`` receives exactly what it missed. When the buffer no
longer reaches back that far (or the server restarted: a new ``stream``), the client gets
fresh snapshots instead. All the streams of a process, and the presence they imply:
:class:`app.messaging.stream_hub.StreamHub`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import msgspec

from app.messaging import channels
from app.messaging import stream_frames as frames
from app.messaging.outbox import Outbox
from app.messaging.pubsub import (
    KeptFrame,
    PubSub,
    QueuedSubscription,
    Subscription,
    crosses_processes,
    lost_on,
    post_elsewhere,
    poster,
)
from app.runtime.clock import SYSTEM_CLOCK, Clock
from app.wire.base import Frame, Numbered, numbered
from app.wire.duel import Ack, MatchResult, ProgressEvent
from app.wire.frames import Echo, Gap, decode, encode, from_channel

__all__ = ["EventStream", "Outbox"]

if TYPE_CHECKING:  # redis is imported only with the redis backend
    from app.messaging.redis_streams import Claim, RedisEventStreams, StreamId

log = logging.getLogger(__name__)

BUFFER_EVENTS = 2000
ACKS_REMEMBERED = 64  # a stream's last acks, against an echo taken twice
MATCH_CHANNEL_GRACE_SECONDS = 5.0
SETTLED_KEPT = 32  # recent match results a stream remembers, to tell each once
Siblings = Callable[["EventStream"], "list[EventStream]"]
"""The player's other streams on this process."""


class EventStream:
    # One per player online (10,000 idle connections: 10,000 sessions), so no __dict__,
    # and the event buffer and chores set only once something needs them.
    __slots__ = (
        "_acks",
        "_buffer",
        "_chores",
        "_clock",
        "_cursors",
        "_outboxes",
        "_pubsub",
        "_pumps",
        "_settled",
        "_shared",
        "_siblings",
        "idle_since",
        "last_n",
        "player_id",
        "stream",
    )

    def __init__(self, player_id: int, pubsub: PubSub, clock: Clock = SYSTEM_CLOCK, *,
                 shared: RedisEventStreams | None = None,
                 claim: tuple[str, Claim] | None = None,
                 siblings: Siblings | None = None) -> None:
        """``shared``: every event also written to Redis (any process can resume the
        stream); ``claim``: a stream taken over from another process, with its events;
        ``siblings``: the player's other streams on this process (``StreamHub``)."""
        self.player_id = player_id
        self._siblings = siblings
        self.stream = secrets.token_hex(8) if claim is None else claim[0]
        self.last_n = 0 if claim is None else claim[1].last_n
        self._shared = shared
        # With shared streams, per followed channel: the id of the last message taken
        # (app/messaging/redis_streams.py), so a message is never taken twice.
        self._cursors: dict[str, StreamId] | None = {} if shared is not None else None
        self._clock = clock
        self.idle_since = clock()
        self._pubsub = pubsub
        # Kept for resuming as (n, JSON bytes): bytes and a tuple of atoms are nothing the
        # garbage collector walks, where a frame's dicts and lists (its view, events) are
        # a dozen containers per action that every collection would walk for as long as
        # the buffer holds them (2,000 per player), and they take more memory as well.
        self._buffer: deque[tuple[int, bytes]] | None = None
        if claim is not None and claim[1].missed:
            self._buffer = deque(claim[1].missed, maxlen=BUFFER_EVENTS)
        self._outboxes: set[Outbox] = set()
        self._pumps: dict[str, tuple[Subscription, asyncio.Task[None] | None]] = {}
        self._chores: set[asyncio.Task[None]] | None = None
        self._settled: deque[int] | None = None  # matches whose result this stream told
        # The last acks carried (_had); taken over, those the client had and missed.
        self._acks = None if claim is None else _carried_acks(claim[1])

    @property
    def connections(self) -> int:
        return len(self._outboxes)

    def emit(self, event: Numbered, taken: tuple[str, StreamId] | None = None, *,
             at_once: bool = False) -> Numbered:
        """Number an event, keep it for resuming, and send it to every open connection.

        ``taken``: the channel message it is, written with it to the shared stream;
        ``at_once``: written to the sockets now (an answer, see ``Outbox.put``)."""
        self.last_n += 1
        frame = numbered(event, self.last_n)
        if isinstance(event, Ack) and not event.duplicate:
            self._acks = _remembered(self._acks, (event.match_id, event.seq))
        if self._buffer is None:
            self._buffer = deque(maxlen=BUFFER_EVENTS)
        encoded = encode(frame)  # once, for the buffer and every connection
        self._buffer.append((self.last_n, encoded))
        if self._shared is not None:  # out once Redis has it (app/messaging/redis_streams.py)
            self._shared.append(self.stream, self.player_id, self.last_n, encoded, taken,
                                _sender(list(self._outboxes), frame, encoded))
        else:
            for outbox in self._outboxes:
                outbox.put(frame, encoded, at_once=at_once)
        if isinstance(event, MatchResult):
            if self._settled is None:
                self._settled = deque(maxlen=SETTLED_KEPT)
            self._settled.append(event.match_id)
            self._later(self._leave_match(event.match_id))
        return frame

    def emit_answer(self, answer: Numbered) -> Numbered:
        """The answer to this player's own action: emitted here (every tab on this
        process), and, when other processes may hold the player's other tabs or devices,
        published on the player's channel so theirs get it too (``_take`` there; our own
        session skips it by ``from_stream``). Refusals concern the asking tab only.

        A duplicate (a resend answered again) is passed on too: the process that first
        acknowledged the step may have died before telling the other tabs, and the
        resend was then answered on another process, from the log. A tab that had the
        step already ignores it (its seq is not past the tab's own)."""
        frame = self.emit(answer, at_once=True)
        if not isinstance(answer, Ack):
            return frame
        siblings = self._siblings(self) if self._siblings is not None else ()
        for sibling in siblings:
            sibling.emit(answer)  # another tab's stream here (it resumed here, apart)
        if crosses_processes(self._pubsub):
            # Posted now, waited for in the background: it goes out with the step's
            # fan-out (one pipeline), not in a round trip of its own after it.
            self._later(_echo(self._pubsub, self.player_id, Echo(answer, self.stream),
                              published=answer.duplicate or bool(siblings)))
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

    def missed_since(self, stream: str | None, last_event: int | None) -> list[Frame] | None:
        """Events after ``last_event`` on ``stream``; None when they cannot all be replayed."""
        if stream != self.stream or last_event is None or last_event > self.last_n:
            return None
        buffer = self._buffer or ()
        oldest = buffer[0][0] if buffer else self.last_n + 1
        if last_event + 1 < oldest:
            return None
        return [decode(encoded) for n, encoded in buffer if n > last_event]

    def attach(self, prelude: list[Frame]) -> Outbox:
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

    async def follow(self, channel: str, since: StreamId | None = None) -> None:
        """Take ``channel``'s messages from now on; ``since`` (a stream taken over): also
        those kept after that id, first."""
        if channel in self._pumps:
            return
        shared = self._shared
        if shared is not None and self._cursors is not None:
            # Where this stream starts taking the channel, read before subscribing: a
            # process taking the stream over catches up from here.
            cursor = since if since is not None else await shared.newest(channel)
            self._cursors[channel] = cursor
            shared.follow(self.stream, self.player_id, channel, cursor)
        subscription = await self._pubsub.subscribe(channel)
        if since is not None and shared is not None:
            # Before live messages are handed over (they wait in the subscription), so
            # the order holds; those seen twice are dropped by their id in `_take`.
            for stream_id, data in await shared.after(channel, since):
                kept = _kept(data, channel, stream_id)
                if kept is not None:
                    self._take(kept, caught_up=True)
        if isinstance(subscription, QueuedSubscription):
            # Handed over, not pumped: emitting is synchronous, so no task per channel
            # waits on a queue and none is woken per message (two per action).
            subscription.forward(self._take)
            self._pumps[channel] = (subscription, None)
        else:
            self._pumps[channel] = (subscription, asyncio.create_task(self._pump(subscription)))

    async def unfollow(self, channel: str) -> None:
        entry = self._pumps.pop(channel, None)
        if entry is not None and self._shared is not None and self._cursors is not None:
            self._cursors.pop(channel, None)
            self._shared.unfollow(self.stream, self.player_id, channel)
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

    def _take(self, message: Any, *, caught_up: bool = False) -> None:
        """A channel's message into this stream; ``caught_up``: read back from the
        channel's kept messages when this stream was taken over here. A message that
        is no frame of the protocol is dropped, said in the log."""
        taken = None
        if isinstance(message, KeptFrame):
            if self._cursors is not None:
                stream_id, channel = message.stream_id, message.channel
                if stream_id <= self._cursors.get(channel, (0, 0)):
                    return  # taken already (a catch-up and live delivery overlap)
                self._cursors[channel] = stream_id
                taken = (channel, stream_id)
            message = message.frame
        try:
            frame = from_channel(message)
        except msgspec.ValidationError:
            log.warning("dropped a message that is no frame: %r", message)
            return
        if isinstance(frame, ProgressEvent):  # twice per action: the mover's own line
            if frame.progress.player_id == self.player_id:  # is dropped (the ack says it)
                return
        elif isinstance(frame, MatchResult) and frame.match_id in (self._settled or ()):
            # Two processes may settle one match at once (the store settles it once, and
            # each answers with the result): the player hears it once.
            return
        elif isinstance(frame, Gap):  # the channel lost messages (app/messaging/redis_pubsub.py)
            frame = frames.resync()
        elif isinstance(frame, Echo):  # my own answer, from the process where a tab of mine acted
            if frame.from_stream == self.stream:
                return  # this stream's own answer
            if _had(self, frame, caught_up):
                # Its id is this stream's cursor now, in Redis too, so that a process
                # taking the stream over does not give it again.
                if taken is not None and self._shared is not None:
                    self._shared.follow(self.stream, self.player_id, *taken)
                return
            frame = frame.ack
        if not isinstance(frame, Numbered):
            log.warning("dropped a frame that is not an event: %r", frame)
            return
        self.emit(frame, taken)

    async def close(self) -> None:
        for chore in list(self._chores or ()):
            chore.cancel()
        for channel in list(self._pumps):
            await self.unfollow(channel)
        for outbox in self._outboxes:
            outbox.put(None)
        self._outboxes.clear()


def _remembered(acks: deque[tuple[int, int]] | None, ack: tuple[int, int]
                ) -> deque[tuple[int, int]]:
    if acks is None:
        acks = deque(maxlen=ACKS_REMEMBERED)
    acks.append(ack)
    return acks


class _AckKey(msgspec.Struct):
    """What tells one ack from another in an event's JSON (the rest is not read)."""

    type: str
    match_id: int = 0
    seq: int = 0
    duplicate: bool = False


def _carried_acks(claim: Claim) -> deque[tuple[int, int]] | None:
    acks = None
    for data in (*claim.carried, *(data for _, data in claim.missed)):
        if (key := _ack_key(data)) is not None:
            acks = _remembered(acks, key)
    return acks


def _ack_key(data: bytes) -> tuple[int, int] | None:
    try:
        event = msgspec.json.decode(data, type=_AckKey)
    except msgspec.DecodeError:
        return None
    if event.type != "ack" or event.duplicate:
        return None
    return event.match_id, event.seq


def _had(stream: EventStream, echo: Echo, caught_up: bool) -> bool:
    """Whether every tab of ``stream`` has the echoed ack already: the stream carried
    it (one taken over beside a tab of the player gets that tab's acks in the process
    at once, while it reads the channel's kept messages, which hold their echoes too),
    or a sibling here made it (read back on a takeover, a sibling's answer is taken:
    this stream was not here when it was made). A duplicate (a resend answered again)
    passes: a tab that had the step ignores it."""
    ack = echo.ack
    if not ack.duplicate and (ack.match_id, ack.seq) in (stream._acks or ()):
        return True
    siblings = stream._siblings(stream) if stream._siblings is not None else ()
    return not caught_up and any(s.stream == echo.from_stream for s in siblings)


def _echo(pubsub: PubSub, player_id: int, message: Echo, *, published: bool
          ) -> Coroutine[Any, Any, None]:
    """A player's answer on their channel, for their tabs on other processes: posted
    now (``app.messaging.pubsub.poster``); the coroutine waits for it. In the
    background: the ack itself is out already.

    Kept on the channel always (with Redis): a tab whose process died is followed by no
    process until it comes back, and its stream, taken over then, catches up on what
    was answered meanwhile (an echo not kept was lost without a gap). Published only
    when another process holds a session of the player (it follows the player's
    channel: Redis counts them inside the batched publish), unless ``published``: a
    duplicate (a resend after a process died), or a player with other tabs' streams
    here, which took the answer here and must see it go by on the channel, so that
    their cursors pass it and a process taking one of them over does not give it
    again."""
    channel = channels.player(player_id)
    sending = (poster(pubsub)(channel, message) if published
               else post_elsewhere(pubsub, channel, message))
    return _echoed(sending, pubsub, player_id, channel)


async def _echoed(sending: Awaitable[None], pubsub: PubSub, player_id: int, channel: str
                  ) -> None:
    try:
        await sending
    except Exception:  # the other tabs are told to resync once Redis is back
        log.warning("could not echo an ack to player %d's other processes", player_id,
                    exc_info=True)
        lost_on(pubsub, channel)


def _sender(outboxes: list[Outbox], frame: Frame, encoded: bytes) -> Callable[[], None]:
    """Send to the connections open when the event was made (later: in their prelude)."""

    def send() -> None:
        for outbox in outboxes:
            outbox.put(frame, encoded)

    return send


def _kept(data: bytes, channel: str, stream_id: StreamId) -> Any:
    """A channel's kept message, read back as the bus delivers it (None if no frame)."""
    from app.messaging.redis_pubsub import kept_message  # only with shared streams (redis)

    return kept_message(channel, stream_id, data)
