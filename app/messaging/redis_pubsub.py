"""The Redis backend of the publish/subscribe interface (`app.messaging.pubsub`).

Several server processes share one Redis: a message published by any of them reaches the
subscribers of all of them. Each process holds one Redis connection for publishing (a
pool) and ONE subscriber connection whatever the number of local subscriptions: a Redis
channel is subscribed when its first local subscriber arrives and dropped with its last,
and a reader task fans each message out to the local queues. Ten thousand WebSockets
therefore cost ten thousand queues, not ten thousand Redis connections.

Messages are also kept (`CHANNEL_STREAM_RETENTION_SECONDS`) in a Redis Stream per channel,
``cs:<channel>``, written with the publish by one script: a published message carries
its stream id. Pub/sub itself is at most once (a message published while the subscriber
connection is down is lost), so when the reader gets its connection back it reads each
subscribed channel's stream after the last id it delivered and delivers what it missed,
in order, before anything newer; a message seen twice is dropped by its id. Those ids
also let players' event streams (`app.messaging.redis_streams`) catch up on a channel after
moving to another process. ``sync:`` channels (cache invalidation, idempotent) are not
kept; nor are the presence scripts' own messages (`app.messaging.redis_presence`).

A message on a channel that carries frames (``channels.carries_frames``) is read from its
JSON straight into its type of ``app/wire/`` (one pass: reading it as a dict and then
converting it cost a worker 12 % of its CPU flat out), a kept one wrapped with its id
(``KeptFrame``); any other channel's message is plain JSON (``StreamMessage`` when kept).

Publishing is `app.messaging.redis_publisher`'s: a publish that Redis did not take (Redis
away, restarting) is not sent again, its channel gets a gap marker, ``{"type": "gap"}``,
once Redis answers: subscribers learn that they missed something (a player's event stream
sends its client a ``resync``; a peer drops its cached match). ``publish`` itself does not
fail then: the caller's work is done, and the loss is announced where it matters.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import uuid
from collections import defaultdict
from typing import Any

import msgspec
import redis.asyncio as redis

from app.messaging.channels import carries_frames
from app.messaging.pubsub import KeptFrame, Message, QueuedSubscription
from app.messaging.redis_healing import DRIVER_INFO, healing_options
from app.messaging.redis_packing import HiredisPackedConnection
from app.messaging.redis_pipeline import SharedPipeline
from app.messaging.redis_publisher import GAP, RETRY_DELAY, UNKEPT, KeptPublisher
from app.messaging.redis_streams import StreamId, kept_after, newest_kept, parse_id
from app.runtime import metrics
from app.runtime.clock import SYSTEM_CLOCK, Clock
from app.wire.frames import read_channel

__all__ = ["GAP", "RETRY_DELAY", "UNKEPT", "RedisPubSub", "StreamMessage"]

POOL_SIZE = 100
POOL_WAIT_SECONDS = 10.0
# A command Redis does not answer within this fails, and is not sent again (a hung Redis
# may still run it when it wakes): a publish waits for Redis, and behind it the game's
# next step, so a hung Redis (open connections, no answer) must cost a second and a gap
# marker, never the game.
COMMAND_TIMEOUT_SECONDS = 1.0
READ_TIMEOUT = 1.0
CONFIRM_TIMEOUT = 5.0


class StreamMessage(dict[str, Any]):
    """A message as delivered by this bus: the dict, plus where it was kept."""

    __slots__ = ("channel", "stream_id")

    def __init__(self, payload: dict[str, Any], channel: str, stream_id: StreamId) -> None:
        super().__init__(payload)
        self.channel = channel
        self.stream_id = stream_id

log = logging.getLogger("spider.pubsub")


class RedisPubSub:
    def __init__(self, url: str, *, prefix: str = "", client_name: str | None = None,
                 keep_seconds: float = 60.0, clock: Clock = SYSTEM_CLOCK) -> None:
        # The prefix keeps deployments (or test runs) sharing one Redis apart.
        self.prefix = prefix
        # A client name makes this process's connections recognisable in CLIENT LIST.
        name = client_name or f"spider-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.client_name = name
        # Waits for a free connection rather than failing: redis-py's default pool raises
        # MaxConnectionsError past 100 at once (10,000 sockets connecting, each reading a
        # channel's newest id, did).
        pool = redis.BlockingConnectionPool.from_url(
            url, client_name=name, max_connections=POOL_SIZE, timeout=POOL_WAIT_SECONDS,
            socket_timeout=COMMAND_TIMEOUT_SECONDS,
            socket_connect_timeout=COMMAND_TIMEOUT_SECONDS,
            **healing_options(retry_timeouts=False))
        self._redis = redis.Redis(connection_pool=pool)
        # The subscriber connection on a client of its own, without the retries: its
        # reader must see a lost connection (and catch up on what it missed), which a
        # silent reconnection would hide.
        self._subscriber = redis.Redis.from_url(
            url, client_name=name, driver_info=DRIVER_INFO,
            connection_class=HiredisPackedConnection)
        self._pubsub = self._subscriber.pubsub()
        self._local: dict[str, set[QueuedSubscription]] = defaultdict(set)
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._lock = asyncio.Lock()
        self._reader: asyncio.Task[None] | None = None
        self.keep_seconds = keep_seconds
        self._clock = clock  # paces the reader's retries after a lost connection
        self._delivered: dict[str, StreamId] = {}  # per channel: the newest id delivered
        self._reconnected = False
        # The one Redis pipeline at a time of this process: the event streams' writes
        # join it (app/wiring.py), so an action's fan-out and its entries share a round trip.
        self.pipeline = SharedPipeline(self._redis)
        self._outgoing = KeptPublisher(self._redis, prefix=prefix, stream_key=self.stream_key,
                                       keep_seconds=keep_seconds, clock=clock,
                                       pipeline=self.pipeline)

    @property
    def client(self) -> redis.Redis:
        return self._redis

    def stream_key(self, channel: str) -> str:
        """The Redis Stream keeping ``channel``'s messages."""
        return f"{self.prefix}cs:{channel}"

    async def publish(self, channel: str, message: Message) -> None:
        """Returns once Redis has the message, or once it is known lost (Redis away): its
        channel then gets a gap marker when Redis is back."""
        await self._outgoing.post(channel, message)

    def post(self, channel: str, message: Message) -> asyncio.Future[None]:
        """``publish``, queued now (``app.messaging.pubsub.poster``)."""
        return self._outgoing.post(channel, message)

    def missed(self, channel: str) -> None:
        """Something meant for ``channel`` could not be sent: mark it for a gap marker."""
        self._outgoing.missed(channel)

    @property
    def gapped(self) -> list[str]:
        """The channels owed a gap marker (Redis has been away since they lost one)."""
        return self._outgoing.gapped

    async def subscribe(self, channel: str) -> QueuedSubscription:
        """Returns once Redis confirmed the channel: a publish after this is delivered."""
        subscription = QueuedSubscription(channel, self._forget)
        try:
            async with self._lock:
                self._local[channel].add(subscription)
                confirmed = self._confirmed.get(channel)
                if confirmed is None:
                    confirmed = asyncio.get_running_loop().create_future()
                    self._confirmed[channel] = confirmed
                    if not channel.startswith(UNKEPT):
                        # Where a catch-up after a lost connection starts: before the
                        # subscription, so no message falls between the two.
                        self._delivered[channel] = await newest_kept(
                            self._redis, self.stream_key(channel))
                    await self._pubsub.subscribe(self.prefix + channel)
                    self._start_reader()
            await asyncio.wait_for(asyncio.shield(confirmed), timeout=CONFIRM_TIMEOUT)
        except BaseException:
            await subscription.close()
            raise
        return subscription

    def subscriber_count(self, channel: str) -> int:
        return len(self._local.get(channel, ()))

    async def publish_elsewhere(self, channel: str, message: Message) -> None:
        """``publish``, only if another process subscribes to ``channel`` (each holds one
        Redis subscription per channel, whatever its local subscribers): checked by
        Redis in the publishing pipeline (``PUBSUB NUMSUB``), no round trip of its own.
        Kept on the channel's stream either way (a stream taken over catches up on it)."""
        await self.post_elsewhere(channel, message)

    def post_elsewhere(self, channel: str, message: Message) -> asyncio.Future[None]:
        """``publish_elsewhere``, queued now (``app.messaging.pubsub.poster``)."""
        here = 1 if self._local.get(channel) else 0
        return self._outgoing.post(channel, message, beyond=here)

    async def ping(self) -> None:
        """Readiness probe: raises when Redis cannot be reached."""
        await self._redis.ping()

    async def close(self) -> None:
        await self._outgoing.close()  # what is published goes out first
        for subscribers in list(self._local.values()):
            for subscription in list(subscribers):
                await subscription.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self._subscriber.aclose()
        # A pool given to a client is not closed with it (redis-py): its connections,
        # the batch script's kept one included, close here.
        await self._redis.aclose(close_connection_pool=True)

    async def _forget(self, subscription: QueuedSubscription) -> None:
        async with self._lock:
            subscribers = self._local.get(subscription.channel)
            if subscribers is None or subscription not in subscribers:
                return
            subscribers.discard(subscription)
            if subscribers:
                return
            del self._local[subscription.channel]
            self._confirmed.pop(subscription.channel, None)
            self._delivered.pop(subscription.channel, None)
            with contextlib.suppress(redis.ConnectionError):
                await self._pubsub.unsubscribe(self.prefix + subscription.channel)

    def _start_reader(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read(), name="redis-pubsub-reader")

    async def _read(self) -> None:
        while True:
            try:
                # Blocking reads while all is well (a read with a timeout sets a timer
                # and a timeout context for each message); with a timeout while a
                # catch-up is due, so one that failed is tried within a second (after
                # a reconnection the resubscription's confirmation starts it).
                raw = await self._pubsub.get_message(
                    timeout=READ_TIMEOUT if self._reconnected else None)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis restarted or the network hiccuped: redis-py reconnects and
                # resubscribes on the next read; what was published meanwhile is lost.
                metrics.ERRORS.labels(where="pubsub").inc()
                log.warning("pubsub read failed; retrying", exc_info=True)
                self._reconnected = True
                await self._clock.sleep(RETRY_DELAY)
                continue
            if self._reconnected:  # resubscribed: first what was published meanwhile
                self._reconnected = False
                await self._catch_up()
            if raw is not None:
                self._handle(raw)

    async def _catch_up(self) -> None:
        """Deliver what each subscribed channel kept after the last message delivered."""
        for channel in list(self._local):
            since = self._delivered.get(channel)
            if since is None or channel.startswith(UNKEPT):
                continue
            try:
                found = await kept_after(self._redis, self.stream_key(channel), since)
            except Exception:
                log.warning("could not catch up on %s", channel, exc_info=True)
                self._reconnected = True  # try again at the next message
                return
            for stream_id, data in found:
                self._deliver_kept(channel, stream_id, data)
            if found:
                log.info("caught up on a channel after a reconnection",
                         extra={"channel": channel, "messages": len(found)})

    def _deliver_kept(self, channel: str, stream_id: StreamId, data: bytes | str) -> None:
        if stream_id <= self._delivered.get(channel, (0, 0)):
            return  # delivered already (a catch-up and the live message overlap)
        self._delivered[channel] = stream_id
        kept = kept_message(channel, stream_id, data)
        if kept is not None:
            QueuedSubscription.deliver_all(list(self._local.get(channel, ())), kept)

    def _handle(self, raw: dict[str, Any]) -> None:
        kind = raw["type"]
        full = raw["channel"].decode() if isinstance(raw["channel"], bytes) else raw["channel"]
        channel = full.removeprefix(self.prefix)
        if kind == "subscribe":
            confirmed = self._confirmed.get(channel)
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
        elif kind == "message":
            data = raw["data"]
            head = data[:1]
            if head not in (b"{", "{"):  # "<stream id> <json>": a kept message
                stream_id, _, body = data.partition(b" " if isinstance(data, bytes) else " ")
                self._deliver_kept(channel, parse_id(stream_id), body)
                return
            message = _parsed(channel, data)
            if message is not None:
                QueuedSubscription.deliver_all(list(self._local.get(channel, ())), message)


def kept_message(channel: str, stream_id: StreamId, data: bytes | str) -> Message | None:
    """A channel's kept message as its subscribers take it, with where it was kept (a
    player's event stream reading a channel back takes it the same way); None if none."""
    message = _parsed(channel, data)
    if message is None:
        return None
    if carries_frames(channel):
        return KeptFrame(message, channel, stream_id)
    return StreamMessage(message, channel, stream_id)


def _parsed(channel: str, data: bytes | str) -> Any:
    """A message as its subscribers take it: a frame of the protocol, read typed in one
    pass, on a channel that carries frames; plain JSON on any other. None (and said in
    the log) for one that is neither."""
    try:
        return read_channel(data) if carries_frames(channel) else json.loads(data)
    except (ValueError, msgspec.DecodeError):
        log.warning("dropped a message that is no frame or no JSON",
                    extra={"channel": channel})
        return None
