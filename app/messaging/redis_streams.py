"""Players' event streams kept in Redis, so a client can resume on any process.

A player's numbered event stream (`app.messaging.player_streams.EventStream`) is written
here as it is emitted, and can be taken over by another process when the client comes back
there with ``(stream, last_event)``. Under the deployment's prefix:

- ``es:{<stream>}``: a Redis Stream, entry id ``<n>-1``, field ``f`` = the frame's JSON
  as sent; trimmed to about ``retention`` entries (``MAXLEN ~``);
- ``es:{<stream>}:m``: a hash: ``owner`` (the process writing the stream), ``player``,
  ``n`` (the newest number written) and one ``c:<channel>`` per channel the stream
  follows, holding the id of the last channel message the stream took.

Both expire about ``ttl`` seconds after the stream's last write (between 15/16 of it and
all of it: a writer refreshes a stream's expiry once per sixteenth of the ttl, not at
every entry, and at once when the entry made the stream anew, as after a restart of
Redis, so a stream never outlives its ttl). The braces are a hash tag:
both keys of a stream live on one Redis Cluster slot (a batch of writes to many streams,
``app.messaging.redis_scripts``, would be split by slot there).

Channel messages are themselves kept in per-channel Redis Streams by the Redis bus
(`app.messaging.redis_pubsub`), so a process taking a stream over reads what the stream's
channels published after their cursors — the events published while no process held the
player (the old one died, the client had not reconnected yet) — and numbers them on.

Writes are queued (``emit`` stays synchronous) and sent in order, one pipeline at a time,
the process's one shared with the bus's publishes (``app.messaging.redis_pipeline``); an
event goes to the player's sockets once Redis has it (``then``), so a client never holds
an event that a process taking its stream over could not replay (a crash between the
two would otherwise turn its resume into snapshots). That costs a Redis round trip per
frame, shared by every frame and publish of the same pipeline. If Redis fails, the
frames go out anyway: the stream then cannot be resumed elsewhere (snapshots), but play
goes on. Every write checks the owner inside its op (``APPEND``, ``CURSOR``); a process
that lost a stream to another one learns it from the answer (``on_lost``) and that frame
is not sent.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import redis.asyncio as redis
from redis.exceptions import RedisError

from app.messaging.redis_pipeline import Outcome, SharedPipeline, Taken
from app.messaging.redis_scripts import LuaOp, OpCall
from app.runtime import metrics

log = logging.getLogger("spider.streams")

StreamId = tuple[int, int]
OnLost = Callable[[str], None]
Then = Callable[[], None]

# Keys: stream, meta. Arguments: owner, n, frame, player, channel ('' for none), cursor,
# maxlen, ttl ms, refresh ('1': set both keys' expiry; set anyway when the stream had no
# meta: it is new, or Redis lost it). Answers 1 (2 when it set the expiry), or 0 when
# another process owns the stream now.
APPEND = LuaOp("append", 2, 9, """
local owner = redis.call('HGET', K[2], 'owner')
if owner and owner ~= A[1] then return 0 end
redis.call('XADD', K[1], 'MAXLEN', '~', A[7], A[2] .. '-1', 'f', A[3])
local fields = {'n', A[2]}
if not owner then
  fields[3], fields[4], fields[5], fields[6] = 'owner', A[1], 'player', A[4]
end
if A[5] ~= '' then
  fields[#fields + 1] = 'c:' .. A[5]
  fields[#fields + 1] = A[6]
end
redis.call('HSET', K[2], unpack(fields))
if A[9] == '0' and owner then return 1 end
redis.call('PEXPIRE', K[1], A[8])
redis.call('PEXPIRE', K[2], A[8])
return 2
""")

# Keys: meta. Arguments: owner, player, field, value ('' deletes), ttl ms. Same answer.
CURSOR = LuaOp("cursor", 1, 5, """
local owner = redis.call('HGET', K[1], 'owner')
if owner and owner ~= A[1] then return 0 end
if not owner then redis.call('HSET', K[1], 'owner', A[1], 'player', A[2], 'n', 0) end
if A[4] == '' then redis.call('HDEL', K[1], A[3])
else redis.call('HSET', K[1], A[3], A[4]) end
redis.call('PEXPIRE', K[1], A[5])
return 1
""")

# KEYS: stream, meta. ARGV: new owner, player, last_event, how many of the entries up to
# last_event to give too. Takes the stream over when it exists, is the player's, and
# still holds every event after last_event; returns {n, missed entries, meta as a flat
# list, the last entries the client had (newest first)}, or false.
_CLAIM = """
local meta = redis.call('HGETALL', KEYS[2])
if #meta == 0 then return false end
local fields = {}
for i = 1, #meta, 2 do fields[meta[i]] = meta[i + 1] end
if fields['player'] ~= ARGV[2] then return false end
local n = tonumber(fields['n'] or '0')
local last = tonumber(ARGV[3])
if last > n then return false end
if last < n then
  local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
  if #first == 0 then return false end
  local oldest = tonumber(string.match(first[1][1], '^(%d+)'))
  if oldest > last + 1 then return false end
end
redis.call('HSET', KEYS[2], 'owner', ARGV[1])
local missed = redis.call('XRANGE', KEYS[1], '(' .. last .. '-1', '+')
local carried = redis.call('XREVRANGE', KEYS[1], last .. '-1', '-', 'COUNT', ARGV[4])
return {n, missed, meta, carried}
"""


Write = tuple[OpCall, Then | None]
REFRESHES_PER_TTL = 16
_PRUNE_EVERY = 1024  # appends between two sweeps of the refresh times


def parse_id(raw: bytes | str) -> StreamId:
    text = raw.decode() if isinstance(raw, bytes) else raw
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


def format_id(stream_id: StreamId) -> str:
    return f"{stream_id[0]}-{stream_id[1]}"


@dataclass
class Claim:
    """A stream taken over: its newest number, the events after the client's last one,
    the channels it follows with the last message it took from each, and the last
    events the client had (``carried``, oldest first: the acks among them are not
    taken again from an echo)."""

    last_n: int
    missed: list[tuple[int, bytes]]
    cursors: dict[str, StreamId]
    carried: list[bytes] = field(default_factory=list)


class RedisEventStreams:
    """This process's writer and reader of players' event streams in Redis."""

    def __init__(self, client: redis.Redis, *, prefix: str, owner: str, retention: int,
                 ttl_seconds: float, channel_key: Callable[[str], str],
                 pipeline: SharedPipeline | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        """``pipeline``: the process's shared one (the bus's), so that a frame's entry goes
        out with the fan-out of the step that made it. ``now``: seconds, for the expiry's
        refreshes."""
        self._redis = client
        self.prefix = prefix
        self.owner = owner
        self.retention = retention
        self._ttl_ms = max(1000, int(ttl_seconds * 1000))
        self._refresh_every = self._ttl_ms / 1000 / REFRESHES_PER_TTL
        self._refreshed: dict[str, float] = {}  # stream key: when Redis last set its expiry
        self._now = now
        self._appends = 0
        self._channel_key = channel_key  # the Redis Stream of a pub/sub channel
        self._claim = client.register_script(_CLAIM)
        self._pipeline = pipeline if pipeline is not None else SharedPipeline(client)
        self._pipeline.join(self, (APPEND, CURSOR))
        self._writes: list[Write] = []
        self._lost_listeners: list[OnLost] = []

    def keys(self, stream: str) -> list[str]:
        base = f"{self.prefix}es:{{{stream}}}"
        return [base, base + ":m"]

    def on_lost(self, listener: OnLost) -> None:
        self._lost_listeners.append(listener)

    # ------------------------------------------------------------------ writing

    def append(self, stream: str, player_id: int, n: int, frame: bytes,
               taken: tuple[str, StreamId] | None = None, then: Then | None = None) -> None:
        """Write event ``n``; ``then`` runs once it is written (or Redis failed)."""
        channel, cursor = taken if taken is not None else ("", (0, 0))
        keys = self.keys(stream)
        self._queue((OpCall(APPEND, keys, (
            self.owner, n, frame, player_id, channel, format_id(cursor), self.retention,
            self._ttl_ms, "1" if self._due(keys[0]) else "0")), then))

    def _due(self, key: str) -> bool:
        """Whether this entry sets its stream's expiry again: when Redis last said it did
        so more than a sixteenth of the ttl ago (or never)."""
        now = self._now()
        self._appends += 1
        if self._appends % _PRUNE_EVERY == 0:
            self._refreshed = {key: at for key, at in self._refreshed.items()
                               if now - at < self._refresh_every}
        at = self._refreshed.get(key)
        return at is None or now - at >= self._refresh_every

    def follow(self, stream: str, player_id: int, channel: str, cursor: StreamId | None
               ) -> None:
        value = "" if cursor is None else format_id(cursor)
        self._queue((OpCall(CURSOR, self.keys(stream)[1:], (
            self.owner, player_id, "c:" + channel, value or "0-0", self._ttl_ms)), None))

    def unfollow(self, stream: str, player_id: int, channel: str) -> None:
        self._queue((OpCall(CURSOR, self.keys(stream)[1:], (
            self.owner, player_id, "c:" + channel, "", self._ttl_ms)), None))

    def _queue(self, write: Write) -> None:
        self._writes.append(write)
        self._pipeline.wake()

    def take(self) -> Taken | None:
        """The pipeline is being made: the writes queued, in order."""
        if not self._writes:
            return None
        batch, self._writes = self._writes, []
        commands = [call for call, _ in batch]

        def settle(outcome: Outcome) -> None:
            self._written(batch, outcome)

        return commands, settle

    def _written(self, batch: list[Write], outcome: Outcome) -> None:
        if isinstance(outcome, Exception):  # Redis away (or a bug): play goes on without it
            metrics.ERRORS.labels(where="streams").inc()
            log.warning("could not write %d stream entries", len(batch), exc_info=outcome)
            outcome = [None] * len(batch)  # sent anyway
        lost: set[str] = set()
        now = self._now()
        for (call, then), answer in zip(batch, outcome, strict=True):
            if answer == 0:
                lost.add(call.keys[0])
                continue
            if answer == 2:  # an entry that set its stream's expiry (only they answer 2)
                self._refreshed[call.keys[0]] = now
            if then is not None:
                then()
        for key in lost:
            stream = key.removeprefix(self.prefix + "es:{").split("}", 1)[0]
            for listener in self._lost_listeners:
                listener(stream)

    async def flushed(self) -> None:
        """Wait until everything queued so far is written (tests, shutdown)."""
        await self._pipeline.idle()

    # ------------------------------------------------------------------ taking over

    async def claim(self, stream: str, player_id: int, last_event: int, *,
                    carried: int = 0) -> Claim | None:
        """``carried``: how many of the events up to ``last_event`` to give too."""
        try:
            answer = await self._claim(keys=self.keys(stream),
                                       args=[self.owner, player_id, last_event, carried])
        except RedisError:
            log.warning("could not take stream %s over", stream, exc_info=True)
            return None
        if not answer:
            return None
        last_n, entries, meta, had = answer
        missed = [(parse_id(entry_id)[0], dict(_pairs(fields))[b"f"])
                  for entry_id, fields in entries]
        flat = dict(_pairs(meta))
        cursors = {key.decode()[2:]: parse_id(value) for key, value in flat.items()
                   if key.startswith(b"c:")}
        return Claim(int(last_n), missed, cursors,
                     [dict(_pairs(fields))[b"f"] for _, fields in reversed(had)])

    async def newest(self, channel: str) -> StreamId:
        """The id of the newest message kept for ``channel`` ((0, 0) when none)."""
        return await newest_kept(self._redis, self._channel_key(channel))

    async def after(self, channel: str, cursor: StreamId) -> list[tuple[StreamId, bytes]]:
        """The messages kept for ``channel`` after ``cursor``, oldest first."""
        return await kept_after(self._redis, self._channel_key(channel), cursor)


async def kept_after(client: redis.Redis, key: str, cursor: StreamId
                     ) -> list[tuple[StreamId, bytes]]:
    """A channel's kept messages (field ``d``) after ``cursor``, oldest first."""
    found = cast(list[Any], await client.xrange(key, min="(" + format_id(cursor), max="+"))
    return [(parse_id(entry_id), fields[b"d"]) for entry_id, fields in found or []]


async def newest_kept(client: redis.Redis, key: str) -> StreamId:
    """The id of a channel's newest kept message ((0, 0) when none)."""
    found = cast(list[Any], await client.xrevrange(key, count=1))
    return parse_id(found[0][0]) if found else (0, 0)


def _pairs(flat: list[Any]) -> list[tuple[Any, Any]]:
    return list(zip(flat[::2], flat[1::2], strict=True))
