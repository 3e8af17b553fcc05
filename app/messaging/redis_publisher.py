"""Publishing on the Redis bus (`app.messaging.redis_pubsub`): messages kept in a stream per
channel, sent in batches, and gap markers for what Redis did not take.

Every message published meanwhile, whoever published it, goes out in order as one
pipeline per batch: one connection and one round trip. A kept message is written by one
script, ``XADD`` to the channel's stream ``cs:<channel>`` then ``PUBLISH`` of
``"<stream id> <json>"``; a ``sync:`` message is a plain ``PUBLISH``.

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

from app.messaging.batching import Batches
from app.messaging.pubsub import Message
from app.messaging.redis_scripts import Command, Publish, ScriptCall, execute
from app.runtime import metrics
from app.runtime.clock import Clock
from app.wire.frames import Gap, encode

RETRY_DELAY = 0.5
UNKEPT = ("sync:",)  # channels whose messages are not kept in a stream
GAP = Gap()  # on a channel that lost messages, once Redis is back
_GAP_JSON = encode(GAP)

# Channel, JSON, settled once sent, and ``beyond``: sent only if more processes than that
# subscribe to the channel (None: always). None instead of a tuple: only the gap markers.
Outgoing = tuple[str, bytes, asyncio.Future[None], int | None] | None

# KEYS: the channel's stream. ARGV: the channel's pub/sub name, the message, seconds kept.
# Trimmed by age (MINID: ids are the Redis server's milliseconds).
_PUBLISH = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local keep = tonumber(ARGV[3]) * 1000
local id = redis.call('XADD', KEYS[1], 'MINID', '~', ms - keep, '*', 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], keep)
redis.call('PUBLISH', ARGV[1], id .. ' ' .. ARGV[2])
return id
"""

# The same, only if more than ARGV[4] processes subscribe to the channel (each process
# holds one subscription per channel): an ack echoed to a player's tabs on other
# processes, with the count read in the same pipeline as the publish, not a round trip
# of its own before it.
_PUBLISH_IF_HEARD = """
if redis.call('PUBSUB', 'NUMSUB', ARGV[1])[2] <= tonumber(ARGV[4]) then
  return false
end
""" + _PUBLISH

log = logging.getLogger("spider.pubsub")


class KeptPublisher:
    def __init__(self, client: redis.Redis, *, prefix: str, stream_key: Callable[[str], str],
                 keep_seconds: float, clock: Clock) -> None:
        self._redis = client
        self.prefix = prefix
        self._stream_key = stream_key
        self.keep_seconds = keep_seconds
        self._clock = clock  # paces the retries of gap markers
        self._publish = client.register_script(_PUBLISH)
        self._publish_if_heard = client.register_script(_PUBLISH_IF_HEARD)
        self._outgoing: Batches[Outgoing] = Batches(self._send)
        self._gapped: dict[str, None] = {}  # channels owed a gap marker, in order
        self._healer: asyncio.Task[None] | None = None

    async def publish(self, channel: str, message: Message, *, beyond: int | None = None
                      ) -> None:
        """``beyond``: published only if more processes than that subscribe to ``channel``."""
        done = asyncio.get_running_loop().create_future()
        self._outgoing.add((channel, encode(message), done, beyond))
        await done

    def missed(self, channel: str) -> None:
        self._gapped[channel] = None
        self._heal_later()

    @property
    def gapped(self) -> list[str]:
        return list(self._gapped)

    async def close(self) -> None:
        while (sending := self._outgoing.running) is not None:
            await asyncio.wait([sending])
        if self._healer is not None:
            self._healer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._healer

    def _command(self, channel: str, payload: bytes, beyond: int | None = None) -> Command:
        if channel.startswith(UNKEPT):
            return Publish(self.prefix + channel, payload)
        if beyond is not None:
            return ScriptCall(self._publish_if_heard, [self._stream_key(channel)],
                              [self.prefix + channel, payload, self.keep_seconds, beyond])
        return ScriptCall(self._publish, [self._stream_key(channel)],
                          [self.prefix + channel, payload, self.keep_seconds])

    async def _send(self, batch: list[Outgoing]) -> None:
        gaps = list(self._gapped)  # first: ahead of anything newer on their channels
        messages = [item for item in batch if item is not None]
        commands = [self._command(channel, _GAP_JSON) for channel in gaps]
        commands += [self._command(channel, payload, beyond)
                     for channel, payload, _, beyond in messages]
        try:
            answers = await execute(self._redis, commands)
            refused = next((a for a in answers if isinstance(a, Exception)), None)
            if refused is not None:  # Redis refused one (out of memory…): as a lost batch
                raise refused
        except RedisError:
            metrics.ERRORS.labels(where="pubsub").inc()
            log.warning("could not publish %d messages; their channels get a gap marker",
                        len(messages), exc_info=True)
            for channel, _, _, _ in messages:
                self._gapped[channel] = None
            self._heal_later()
            self._settle(messages, None)
            return
        except Exception as error:
            self._settle(messages, error)
            return
        for channel in gaps:
            self._gapped.pop(channel, None)
        if gaps:
            log.info("sent gap markers", extra={"channels": len(gaps)})
        self._settle(messages, None)

    @staticmethod
    def _settle(messages: list[tuple[str, bytes, asyncio.Future[None], int | None]],
                error: Exception | None) -> None:
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
                self._outgoing.add(None)
                while (sending := self._outgoing.running) is not None:
                    await asyncio.wait([sending])
