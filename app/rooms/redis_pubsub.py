"""The Redis backend of the publish/subscribe interface (`app.rooms.pubsub`).

Several server processes share one Redis: a message published by any of them reaches the
subscribers of all of them. Each process holds one Redis connection for publishing (a
pool) and ONE subscriber connection whatever the number of local subscriptions: a Redis
channel is subscribed when its first local subscriber arrives and dropped with its last,
and a reader task fans each message out to the local queues. Ten thousand WebSockets
therefore cost ten thousand queues, not ten thousand Redis connections.

Delivery is at most once, like Redis pub/sub itself: a message published while the
subscriber connection is down is lost. The protocol copes, since every event a client
needs carries an event number and a client that notices a gap resyncs from the action
log (the truth), not from the bus.
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

import redis.asyncio as redis

from app.ops import metrics
from app.rooms.pubsub import Message, QueuedSubscription

READ_TIMEOUT = 1.0
RETRY_DELAY = 0.5
CONFIRM_TIMEOUT = 5.0

log = logging.getLogger("spider.pubsub")


class RedisSubscription(QueuedSubscription):
    """One local subscriber: a bounded queue fed by the process's reader task."""

    __slots__ = ("_bus",)

    def __init__(self, bus: RedisPubSub, channel: str) -> None:
        super().__init__(channel)
        self._bus = bus

    async def close(self) -> None:
        self._end()
        await self._bus._forget(self)


class RedisPubSub:
    def __init__(self, url: str, *, prefix: str = "", client_name: str | None = None) -> None:
        # The prefix keeps deployments (or test runs) sharing one Redis apart.
        self.prefix = prefix
        # A client name makes this process's connections recognisable in CLIENT LIST.
        name = client_name or f"spider-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.client_name = name
        self._redis = redis.Redis.from_url(url, client_name=name)
        self._pubsub = self._redis.pubsub()
        self._local: dict[str, set[RedisSubscription]] = defaultdict(set)
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._lock = asyncio.Lock()
        self._reader: asyncio.Task[None] | None = None

    async def publish(self, channel: str, message: Message) -> None:
        payload = json.dumps(message, separators=(",", ":"))
        await self._redis.publish(self.prefix + channel, payload)

    async def subscribe(self, channel: str) -> RedisSubscription:
        """Returns once Redis confirmed the channel: a publish after this is delivered."""
        subscription = RedisSubscription(self, channel)
        try:
            async with self._lock:
                self._local[channel].add(subscription)
                confirmed = self._confirmed.get(channel)
                if confirmed is None:
                    confirmed = asyncio.get_running_loop().create_future()
                    self._confirmed[channel] = confirmed
                    await self._pubsub.subscribe(self.prefix + channel)
                    self._start_reader()
            await asyncio.wait_for(asyncio.shield(confirmed), timeout=CONFIRM_TIMEOUT)
        except BaseException:
            await subscription.close()
            raise
        return subscription

    def subscriber_count(self, channel: str) -> int:
        return len(self._local.get(channel, ()))

    async def ping(self) -> None:
        """Readiness probe: raises when Redis cannot be reached."""
        await self._redis.ping()

    async def close(self) -> None:
        for subscribers in list(self._local.values()):
            for subscription in list(subscribers):
                await subscription.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self._redis.aclose()

    async def _forget(self, subscription: RedisSubscription) -> None:
        async with self._lock:
            subscribers = self._local.get(subscription.channel)
            if subscribers is None or subscription not in subscribers:
                return
            subscribers.discard(subscription)
            if subscribers:
                return
            del self._local[subscription.channel]
            self._confirmed.pop(subscription.channel, None)
            with contextlib.suppress(redis.ConnectionError):
                await self._pubsub.unsubscribe(self.prefix + subscription.channel)

    def _start_reader(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read(), name="redis-pubsub-reader")

    async def _read(self) -> None:
        while True:
            try:
                raw = await self._pubsub.get_message(timeout=READ_TIMEOUT)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis restarted or the network hiccuped: redis-py reconnects and
                # resubscribes on the next read; what was published meanwhile is lost.
                metrics.ERRORS.labels(where="pubsub").inc()
                log.warning("pubsub read failed; retrying", exc_info=True)
                await asyncio.sleep(RETRY_DELAY)
                continue
            if raw is not None:
                self._handle(raw)

    def _handle(self, raw: dict[str, Any]) -> None:
        kind = raw["type"]
        full = raw["channel"].decode() if isinstance(raw["channel"], bytes) else raw["channel"]
        channel = full.removeprefix(self.prefix)
        if kind == "subscribe":
            confirmed = self._confirmed.get(channel)
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
        elif kind == "message":
            try:
                message = json.loads(raw["data"])
            except ValueError:
                log.warning("dropped a non-JSON message", extra={"channel": channel})
                return
            for subscription in list(self._local.get(channel, ())):
                subscription._deliver(message)
