"""Publish/subscribe on named channels: the one way live messages fan out.

A message is a frame of ``app/wire/`` or a channel's own JSON-able dict (the presence
changes, the peers' sync); in process it is handed over as it is, through Redis as its
JSON (a stream reads a frame back typed: ``app.wire.frames.from_channel``). The
interface is async and channel-based so that a Redis backend (another process, many
servers) can replace the in-process one without touching its callers. A subscription is
an async iterator of messages; closing it stops delivery.

Channel names used by the rooms layer (documented in docs/architecture.md):
``player:{id}`` (direct messages to one player), ``lobby``, ``presence:{id}``,
``match:{id}`` (progress of the match's games), ``watch:{match}:{player}`` (live steps of
a game, for spectators allowed to see them).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, Protocol, runtime_checkable

from app.runtime.light_queue import LightQueue

Message = Any
"""A frame (``app.wire``) or a JSON-able dict."""
log = logging.getLogger(__name__)

SUBSCRIPTION_BUFFER = 1000


class Subscription(Protocol):
    channel: str

    def __aiter__(self) -> AsyncIterator[Message]: ...

    async def close(self) -> None: ...


class PubSub(Protocol):
    async def publish(self, channel: str, message: Message) -> None: ...

    async def subscribe(self, channel: str) -> Subscription: ...

    async def close(self) -> None: ...


class KeptFrame:
    """A frame delivered by a backend that keeps each channel's messages (Redis), with
    where it was kept: a player's event stream takes a message once by that id."""

    __slots__ = ("channel", "frame", "stream_id")

    def __init__(self, frame: Any, channel: str, stream_id: tuple[int, int]) -> None:
        self.frame, self.channel, self.stream_id = frame, channel, stream_id


class SubscriptionOverflow(RuntimeError):
    """A subscriber fell too far behind; its stream is cut rather than growing without bound."""


class QueuedSubscription:
    """A local subscriber's bounded queue; each backend feeds it with ``deliver``.

    A LightQueue, not an asyncio.Queue: every online player holds one (its
    ``player:{id}`` channel), and an idle one should cost next to nothing.

    A consumer that handles messages synchronously can have them handed over instead
    (:meth:`forward`): no task waiting on the queue, no coroutine resumed per message.
    """

    __slots__ = ("_closed", "_forget", "_forward", "_queue", "channel")

    def __init__(self, channel: str,
                 forget: Callable[[QueuedSubscription], Awaitable[None]]) -> None:
        """``forget``: the backend's way to stop feeding this subscription, on close."""
        self.channel = channel
        self._forget = forget
        self._queue: LightQueue[Message | None] = LightQueue()
        self._closed = False
        self._forward: Callable[[Message], None] | None = None

    def forward(self, handler: Callable[[Message], None]) -> None:
        """From now on hand each message to ``handler`` instead of queueing it (those
        already queued first); the subscription is then no longer iterated.

        Handed over on the loop's next turn, as a consumer task would have taken it: a
        publisher finishes what it is doing (an action's ack goes out before the
        game_over it caused) before subscribers see its messages.
        """
        self._forward = handler
        for message in self._queue.take_all():
            if message is None:  # ended while queued: nothing after it
                break
            self.deliver(message)

    def _hand_over(self, message: Message) -> None:
        if self._closed or self._forward is None:  # closed since: dropped, like a queue
            return
        try:
            self._forward(message)
        except Exception:  # one subscriber's failure is not the publisher's
            log.exception("a subscriber failed to take a message")

    def deliver(self, message: Message) -> None:
        if self._closed:
            return
        if self._forward is not None:
            asyncio.get_running_loop().call_soon(self._hand_over, message)
            return
        if self._queue.qsize() >= SUBSCRIPTION_BUFFER:
            # A stuck consumer must not make memory grow forever: end its stream.
            self._end()
            return
        self._queue.put_nowait(message)

    @staticmethod
    def deliver_all(subscriptions: Iterable[QueuedSubscription], message: Message) -> None:
        """``deliver`` to each subscription, in order, with one loop callback for all the
        ones that hand messages over (a callback costs more than a hand-over, and every
        action's progress line goes to both players of the match)."""
        forwarding: list[QueuedSubscription] | None = None
        for subscription in subscriptions:
            if subscription._forward is None or subscription._closed:
                subscription.deliver(message)
            elif forwarding is None:
                forwarding = [subscription]
            else:
                forwarding.append(subscription)
        if forwarding is not None:
            asyncio.get_running_loop().call_soon(_hand_over_each, forwarding, message)

    def _end(self) -> None:
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(None)

    async def close(self) -> None:
        self._end()
        await self._forget(self)

    def __aiter__(self) -> AsyncIterator[Message]:
        return self

    async def __anext__(self) -> Message:
        if self._closed and self._queue.empty():
            raise StopAsyncIteration
        message = await self._queue.get()
        if message is None:
            raise StopAsyncIteration
        return message


def _hand_over_each(subscriptions: list[QueuedSubscription], message: Message) -> None:
    for subscription in subscriptions:
        subscription._hand_over(message)


class MemoryPubSub:
    """In-process backend: one asyncio queue per subscription, delivery in publish order."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[QueuedSubscription]] = defaultdict(set)

    async def publish(self, channel: str, message: Message) -> None:
        subscribers = self._subscribers.get(channel)
        if subscribers:  # delivering changes no set of subscribers: no copy needed
            QueuedSubscription.deliver_all(subscribers, message)

    async def subscribe(self, channel: str) -> QueuedSubscription:
        subscription = QueuedSubscription(channel, self._forget)
        self._subscribers[channel].add(subscription)
        return subscription

    def subscriber_count(self, channel: str) -> int:
        return len(self._subscribers.get(channel, ()))

    async def _forget(self, subscription: QueuedSubscription) -> None:
        subscribers = self._subscribers.get(subscription.channel)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del self._subscribers[subscription.channel]

    async def close(self) -> None:
        for subscribers in list(self._subscribers.values()):
            for subscription in list(subscribers):
                await subscription.close()


def may_deliver(pubsub: PubSub, channel: str) -> bool:
    """False only when no subscriber anywhere can receive a message published on ``channel``.

    The in-process backend knows all its subscribers; any other backend may have them in
    other processes, so the answer there is always True.
    """
    if isinstance(pubsub, MemoryPubSub):
        return pubsub.subscriber_count(channel) > 0
    return True


def crosses_processes(pubsub: PubSub) -> bool:
    """Whether a message published here may reach another server process (any backend
    but the in-process one)."""
    return not isinstance(pubsub, MemoryPubSub)


@runtime_checkable
class AnnouncesGaps(Protocol):
    """A backend that can lose messages (Redis away) and tell the channel's subscribers
    so afterwards, with a gap marker (``app.wire.frames.Gap``)."""

    def missed(self, channel: str) -> None: ...


def lost_on(pubsub: PubSub, channel: str) -> None:
    """Something meant for ``channel`` could not be sent: its subscribers are told once
    the backend can (a gap marker), where the backend may lose messages at all."""
    if isinstance(pubsub, AnnouncesGaps):
        pubsub.missed(channel)


@runtime_checkable
class Posts(Protocol):
    """A backend that queues a message the moment it is given and sends what was queued
    meanwhile together (Redis: one pipeline, one round trip), in order."""

    def post(self, channel: str, message: Message) -> Awaitable[None]: ...

    def post_elsewhere(self, channel: str, message: Message) -> Awaitable[None]: ...


Poster = Callable[[str, Message], Awaitable[None]]


def poster(pubsub: PubSub) -> Poster:
    """How to post on ``pubsub``: ``post(channel, message)`` queues the message at once
    where the backend can (``Posts``), so that the messages of one step, posted one after
    the other and then awaited, cost one round trip instead of one each; elsewhere the
    publish happens when awaited. Either way, await what it returns, in order: it says
    whether the message went out (or is known lost)."""
    return pubsub.post if isinstance(pubsub, Posts) else pubsub.publish


def post_elsewhere(pubsub: PubSub, channel: str, message: Message) -> Awaitable[None]:
    """``publish_elsewhere``, queued now where the backend can (see ``poster``)."""
    if isinstance(pubsub, Posts):
        return pubsub.post_elsewhere(channel, message)
    return publish_elsewhere(pubsub, channel, message)


@runtime_checkable
class PublishesElsewhere(Protocol):
    """A backend that can publish only where another process subscribes (Redis: the
    message is kept all the same, for a stream taken over later)."""

    async def publish_elsewhere(self, channel: str, message: Message) -> None: ...


async def publish_elsewhere(pubsub: PubSub, channel: str, message: Message) -> None:
    """Publish ``message`` if another server process may subscribe to ``channel``: nothing
    with the in-process backend; a backend that cannot tell publishes it."""
    if isinstance(pubsub, PublishesElsewhere):
        await pubsub.publish_elsewhere(channel, message)
    elif crosses_processes(pubsub):
        await pubsub.publish(channel, message)
