"""A batch of Redis writes as one script call: one ``EVALSHA`` per pipeline, not per write.

Each kind of write the process sends (a kept publish, a stream entry, a stream's cursor, a
plain publish) is a ``LuaOp``: a few lines of Lua run on its own keys and arguments. A
batch of them goes to Redis as one call of one script made of every op the process knows,
which runs them in order. Measured with ``bench.load --cluster`` (round 24 of
docs/bench/load-rounds.md), a script call cost Redis about 8 µs of its own beyond the
commands it runs, and an action made 5 of them (two kept publishes, the ack's echo, two
stream entries); as a batch it is one per pipeline.

Each op runs under ``pcall``: one that fails (Redis out of memory, a key of the wrong
type) answers its error and stops no other, as the commands of a pipeline did. The batch
is one call, so a script Redis does not have (it restarted, or its cache was flushed)
answers ``NOSCRIPT`` before running anything: it is loaded and the same call sent again
(redis-py's ``Script`` does that), so nothing runs twice.

A batch goes out on a connection the script keeps (taken from its client's pool once),
sent and read directly: at human pace each action is its own batch, and redis-py's
machinery around a command (pool check-out and return, event dispatch, metrics, a timeout
task) cost the client 75 µs of its ~220 µs per call (``python -m bench.floor``, round 25
of docs/bench/load-rounds.md). Its retries stay the pool's: a connection error retried on
a fresh connection as the pool's options say, a timeout never (a publish must not run
twice), and redis-py's connection drops itself on any error mid-read.

The keys of one batch belong to many streams: legal on one Redis (the deployment this
server supports), not on Redis Cluster, where a batch would be split by hash slot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import redis.asyncio as redis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import NoScriptError, ResponseError

_ERROR = b"!"  # an op's answer that starts with it is the error it met


@dataclass(frozen=True, slots=True)
class LuaOp:
    """One kind of write. ``body`` is Lua that reads its keys as ``K[1..keys]`` and its
    arguments as ``A[1..args]`` and returns a number or a string (never nil or false: they
    would end the batch's answer early). ``clock_ms()`` gives the Redis server's time in
    milliseconds, read once per batch."""

    name: str
    keys: int
    args: int
    body: str


@dataclass(frozen=True, slots=True)
class OpCall:
    op: LuaOp
    keys: Sequence[Any]
    args: Sequence[Any]

    def __post_init__(self) -> None:
        if len(self.keys) != self.op.keys or len(self.args) != self.op.args:
            raise ValueError(f"{self.op.name} takes {self.op.keys} keys and {self.op.args} "
                             f"arguments, not {len(self.keys)} and {len(self.args)}")


PUBLISH = LuaOp("publish", 0, 2, "return redis.call('PUBLISH', A[1], A[2])")

_PREAMBLE = """
local ops, now_ms = {}, nil
local function clock_ms()
  if not now_ms then
    local now = redis.call('TIME')
    now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
  end
  return now_ms
end"""

_RUN = """
local out, k, a = {}, 0, 1
while a <= #ARGV do
  local op = ops[ARGV[a]]
  local K, A = {}, {}
  for j = 1, op[1] do K[j] = KEYS[k + j] end
  for j = 1, op[2] do A[j] = ARGV[a + j] end
  k, a = k + op[1], a + 1 + op[2]
  local ok, answer = pcall(op[3], K, A)
  if ok then
    out[#out + 1] = answer
  else
    out[#out + 1] = '!' .. (type(answer) == 'table' and answer.err or tostring(answer))
  end
end
return out
"""


def compose(ops: Iterable[LuaOp]) -> str:
    """The batch script that runs these ops (each name once)."""
    parts = [_PREAMBLE]
    for op in ops:
        parts.append(f"ops[{_lua_string(op.name)}] = {{{op.keys}, {op.args}, "
                     f"function(K, A)\n{op.body.strip()}\nend}}")
    return "\n".join(parts) + _RUN


def _lua_string(text: str) -> str:
    if not text.isidentifier():
        raise ValueError(f"an op's name is a plain word, not {text!r}")
    return f"'{text}'"


class BatchScript:
    """The process's batch script on one client: ops are added as its writers join,
    before the first batch is sent. One batch at a time (the shared pipeline's sender)."""

    __slots__ = ("_client", "_connection", "_ops", "_sha", "_source")

    def __init__(self, client: redis.Redis, ops: Iterable[LuaOp] = (PUBLISH,)) -> None:
        self._client = client
        self._ops: dict[str, LuaOp] = {}
        self._source: str | None = None
        self._sha = ""
        self._connection: AbstractConnection | None = None
        self.add(ops)

    def add(self, ops: Iterable[LuaOp]) -> None:
        for op in ops:
            known = self._ops.setdefault(op.name, op)
            if known != op:
                raise ValueError(f"two different ops are named {op.name!r}")
        self._source = None

    async def run(self, calls: Sequence[OpCall]) -> list[Any]:
        """Each call's answer, or the ``ResponseError`` it met, in order; raises
        ``RedisError`` when the batch could not be run at all."""
        unknown = {call.op.name for call in calls} - self._ops.keys()
        if unknown:
            raise ValueError(f"ops not in this batch script: {sorted(unknown)}")
        if self._source is None:
            self._source = compose(self._ops.values())
            self._sha = hashlib.sha1(self._source.encode()).hexdigest()  # Redis names it so
        keys = [key for call in calls for key in call.keys]
        args = [part for call in calls for part in (call.op.name, *call.args)]
        if self._connection is None:
            self._connection = await self._client.connection_pool.get_connection()  # type: ignore[no-untyped-call]
        connection = self._connection
        answers = await connection.retry.call_with_retry(
            lambda: self._call(connection, keys, args),
            lambda _: connection.disconnect())
        return [_answer(answer) for answer in answers]

    async def _call(self, connection: AbstractConnection, keys: list[Any], args: list[Any]
                    ) -> Any:
        """``EVALSHA``; a script Redis does not have (it restarted) is loaded and the same
        call sent again: ``NOSCRIPT`` comes before anything runs, so nothing runs twice."""
        evalsha = ("EVALSHA", self._sha, len(keys), *keys, *args)
        try:
            return await _ask(connection, *evalsha)
        except NoScriptError:
            await _ask(connection, "SCRIPT", "LOAD", self._source)
        return await _ask(connection, *evalsha)


async def _ask(connection: AbstractConnection, *command: Any) -> Any:
    await connection.send_command(*command)
    return await connection.read_response()


def _answer(raw: Any) -> Any:
    if isinstance(raw, bytes) and raw.startswith(_ERROR):
        return ResponseError(raw[1:].decode(errors="replace"))
    return raw
