"""Publishing on the Redis bus (`app.messaging.redis_pubsub`): messages kept in a stream per
channel, sent in batches, and gap markers for what Redis did not take.

Every message published meanwhile, whoever published it, goes out in order as one
pipeline per batch: one connection, one round trip and one script call, shared with the
event streams' writes queued meanwhile (`app.messaging.redis_pipeline`). A kept message
is written by the op ``kept``: ``XADD`` to the channel's stream ``cs:<channel>`` then
``PUBLISH`` of ``"<stream id> <json>"``; a ``sync:`` message is a plain ``PUBLISH``.

A batch that Redis did not take (Redis away, restarting) is not sent again: a message
sent twice cannot be told from two messages. Its channels are marked instead, and once
Redis answers again (the next batch, or a retry every ``RETRY_DELAY``) a gap marker,
``{"type": "gap"}``, goes out on each ahead of anything newer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import redis.asyncio as redis
from redis.exceptions import RedisError

from app.messaging.pubsub import Message
from app.messaging.redis_pipeline import Outcome, SharedPipeline, Taken
from app.messaging.redis_scripts import PUBLISH, LuaOp, OpCall
from app.runtime import metrics
from app.runtime.clock import Clock
from app.wire.frames import Gap, encode

RETRY_DELAY = 0.5
UNKEPT = ("sync:",)  # channels whose messages are not kept in a stream
GAP = Gap()  # on a channel that lost messages, once Redis is back
_GAP_JSON = encode(GAP)

# Channel, JSON, settled once sent, and ``beyond``: kept, but published only if more
# processes than that subscribe to the channel (None: always published).
Queued = tuple[str, bytes, asyncio.Future[None], int | None]

# Keys: the channel's stream. Arguments: the channel's pub/sub name, the message, seconds
# kept. Trimmed by age (MINID: ids are the Redis server's milliseconds). Published when
# {heard}.
_KEPT = """
local keep = tonumber(A[3]) * 1000
local id = redis.call('XADD', K[1], 'MINID', '~', clock_ms() - keep, '*', 'd', A[2])
redis.call('PEXPIRE', K[1], keep)
if {heard} then redis.call('PUBLISH', A[1], id .. ' ' .. A[2]) end
return id
"""
KEPT = LuaOp("kept", 1, 3, _KEPT.format(heard="true"))

# The same, but published only if more than A[4] processes subscribe to the channel
# (each process holds one subscription per channel): an ack echoed to a player's tabs on
# other processes, with the count read in the same script as the publish, not a round
# trip of its own before it. Always kept: a tab whose process died is followed by no
# process until it comes back, and its stream, taken over then, catches up on the
# channel's kept messages (an echo not kept was lost without a gap).
KEPT_HEARD = LuaOp("kept_heard", 1, 4, _KEPT.format(
    heard="redis.call('PUBSUB', 'NUMSUB', A[1])[2] > tonumber(A[4])"))

log = logging.getLogger("spider.pubsub")


class KeptPublisher:
    """Queues messages for the process's shared pipeline (``pipeline``: the event
    streams' writes go out in the same round trip)."""

    def __init__(self, client: redis.Redis, *, prefix: str, stream_key: Callable[[str], str],
                 keep_seconds: float, clock: Clock, pipeline: SharedPipeline) -> None:
        self._redis = client
        self.prefix = prefix
        self._stream_key = stream_key
        self.keep_seconds = keep_seconds
        self._clock = clock  # paces the retries of gap markers
        self.pipeline = pipeline
        pipeline.join(self, (KEPT, KEPT_HEARD))
        self._queued: list[Queued] = []
        self._retry = False  # gap markers are owed a try even with nothing queued
        self._gapped: dict[str, None] = {}  # channels owed a gap marker, in order
        self._healer: asyncio.Task[None] | None = None

    def post(self, channel: str, message: Message, *, beyond: int | None = None
             ) -> asyncio.Future[None]:
        """Queued now: what is posted before the caller's next await goes out in one
        pipeline, in order. The future settles once Redis has it (or it is known lost: a
        gap marker follows). ``beyond``: kept, but published only if more processes than
        that subscribe to ``channel``."""
        done = asyncio.get_running_loop().create_future()
        self._queued.append((channel, encode(message), done, beyond))
        self.pipeline.wake()
        return done

    def missed(self, channel: str) -> None:
        self._gapped[channel] = None
        self._heal_later()

    @property
    def gapped(self) -> list[str]:
        return list(self._gapped)

    async def close(self) -> None:
        await self.pipeline.idle()
        if self._healer is not None:
            self._healer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._healer

    def _command(self, channel: str, payload: bytes, beyond: int | None = None) -> OpCall:
        if channel.startswith(UNKEPT):
            return OpCall(PUBLISH, (), (self.prefix + channel, payload))
        keys = (self._stream_key(channel),)
        if beyond is not None:
            return OpCall(KEPT_HEARD, keys,
                          (self.prefix + channel, payload, self.keep_seconds, beyond))
        return OpCall(KEPT, keys, (self.prefix + channel, payload, self.keep_seconds))

    def take(self) -> Taken | None:
        """The pipeline is being made: the gap markers owed (first: ahead of anything newer
        on their channels), then the messages queued."""
        if not self._queued and not (self._retry and self._gapped):
            return None
        self._retry = False
        gaps = list(self._gapped)
        messages, self._queued = self._queued, []
        commands = [self._command(channel, _GAP_JSON) for channel in gaps]
        commands += [self._command(channel, payload, beyond)
                     for channel, payload, _, beyond in messages]

        def settle(outcome: Outcome) -> None:
            self._sent(gaps, messages, outcome)

        return commands, settle

    def _sent(self, gaps: list[str], messages: list[Queued], outcome: Outcome) -> None:
        if isinstance(outcome, list):  # Redis refused one (out of memory…): as a lost batch
            outcome = next((a for a in outcome if isinstance(a, Exception)), outcome)
        if isinstance(outcome, RedisError):
            metrics.ERRORS.labels(where="pubsub").inc()
            log.warning("could not publish %d messages; their channels get a gap marker",
                        len(messages), exc_info=outcome)
            for channel, _, _, _ in messages:
                self._gapped[channel] = None
            self._heal_later()
            self._settle(messages, None)
            return
        if isinstance(outcome, Exception):
            self._settle(messages, outcome)
            return
        for channel in gaps:
            self._gapped.pop(channel, None)
        if gaps:
            log.info("sent gap markers", extra={"channels": len(gaps)})
        self._settle(messages, None)

    @staticmethod
    def _settle(messages: list[Queued], error: Exception | None) -> None:
        for _, _, done, _ in messages:
            if done.done():
                continue
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)

    def _heal_later(self) -> None:
        if self._healer is None or self._healer.done():
            self._healer = asyncio.create_task(self._heal(), name="redis-pubsub-gaps")

    async def _heal(self) -> None:
        """Until every gap marker is out: try again every ``RETRY_DELAY`` (a publish
        meanwhile sends them too)."""
        while self._gapped:
            await self._clock.sleep(RETRY_DELAY)
            if self._gapped:
                self._retry = True
                self.pipeline.wake()
                await self.pipeline.idle()
