"""A batch of writes as one script call (app/messaging/redis_scripts.py), and what the
event streams' op does with a stream's expiry, on a Redis of the test's own: its command
counts and its script cache are the test's alone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as redis
from redis.exceptions import ResponseError

from app.messaging.redis_healing import healing_options
from app.messaging.redis_scripts import PUBLISH, BatchScript, LuaOp, OpCall, compose
from app.messaging.redis_streams import RedisEventStreams
from tests.support.own_redis import OwnRedis, own_redis  # noqa: F401 (fixture)

COUNT = LuaOp("count", 1, 1, "return redis.call('INCRBY', K[1], A[1])")
LIST = LuaOp("push", 1, 2, "return redis.call('RPUSH', K[1], A[1], A[2])")


@pytest.fixture
async def client(own_redis: OwnRedis) -> AsyncIterator[redis.Redis]:  # noqa: F811
    connection = redis.Redis.from_url(own_redis.url)
    yield connection
    await connection.aclose()


async def calls(client: redis.Redis) -> dict[str, int]:
    stats: dict[str, Any] = await client.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(entry["calls"])
            for name, entry in stats.items()}


async def test_a_batch_is_one_script_call_asking_nothing_before_it(client: redis.Redis) -> None:
    script = BatchScript(client, [PUBLISH, COUNT, LIST])
    await script.run([OpCall(COUNT, ["k"], [0])])  # loaded once
    before = await calls(client)
    answers = await script.run([
        OpCall(COUNT, ["k"], [1]), OpCall(PUBLISH, [], ["c", "hello"]),
        OpCall(LIST, ["l"], ["a", "b"]), OpCall(COUNT, ["k"], [2])])
    assert answers == [1, 0, 2, 3]  # in order; nobody subscribes to "c"
    assert await client.lrange("l", 0, -1) == [b"a", b"b"]
    after = await calls(client)
    assert after.get("script|exists", 0) == before.get("script|exists", 0)  # no round trip
    assert after["evalsha"] - before["evalsha"] == 1
    assert after["incrby"] - before["incrby"] == 2


async def test_a_script_redis_does_not_have_is_loaded_and_each_write_runs_once(
        client: redis.Redis) -> None:
    script = BatchScript(client, [COUNT])
    assert await script.run([OpCall(COUNT, ["k"], [1])]) == [1]  # never loaded before
    await client.script_flush()  # as after a restart of Redis
    answers = await script.run([OpCall(COUNT, ["k"], [10]), OpCall(COUNT, ["k"], [100])])
    assert answers == [11, 111]
    assert int(await client.get("k") or 0) == 111


async def test_batches_go_out_on_one_kept_connection(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    """Taken from the pool once, not per batch: at human pace every action is a batch,
    and the check-out and return were a third of a call's cost in the client."""
    pool = client.connection_pool
    taken: list[object] = []
    get_connection = pool.get_connection

    async def counted(*args: Any, **kwargs: Any) -> Any:
        connection = await get_connection(*args, **kwargs)
        taken.append(connection)
        return connection

    monkeypatch.setattr(pool, "get_connection", counted)
    script = BatchScript(client, [COUNT])
    for n in range(1, 4):
        assert await script.run([OpCall(COUNT, ["k"], [1])]) == [n]
    assert len(taken) == 1


async def test_a_kept_connection_killed_between_batches_heals_and_the_batch_runs_once(
        own_redis: OwnRedis) -> None:  # noqa: F811
    """Redis dropped the connection (a restart, a balancer): the next batch goes out on a
    fresh one, as every client's pool retries a connection error (redis_healing.py)."""
    healing = redis.Redis.from_url(own_redis.url, **healing_options(retry_timeouts=False))
    try:
        script = BatchScript(healing, [COUNT])
        assert await script.run([OpCall(COUNT, ["k"], [1])]) == [1]
        killer = redis.Redis.from_url(own_redis.url)
        assert await killer.client_kill_filter(_type="normal", skipme=True) >= 1
        await killer.aclose()
        assert await script.run([OpCall(COUNT, ["k"], [10])]) == [11]
        assert int(await healing.get("k") or 0) == 11
    finally:
        await healing.aclose()


async def test_a_failing_write_answers_its_error_and_stops_no_other(client: redis.Redis) -> None:
    script = BatchScript(client, [COUNT, LIST])
    await client.set("text", "not a list")
    answers = await script.run([OpCall(COUNT, ["k"], [1]), OpCall(LIST, ["text"], ["a", "b"]),
                                OpCall(COUNT, ["k"], [1])])
    assert answers[0] == 1 and answers[2] == 2
    assert isinstance(answers[1], ResponseError)
    assert "WRONGTYPE" in str(answers[1])


async def test_an_op_the_script_does_not_know_or_a_call_of_the_wrong_shape_is_refused(
        client: redis.Redis) -> None:
    script = BatchScript(client, [COUNT])
    with pytest.raises(ValueError, match="push"):
        await script.run([OpCall(LIST, ["l"], ["a", "b"])])
    with pytest.raises(ValueError, match="takes 1 keys and 1 arguments"):
        OpCall(COUNT, ["k", "j"], [1])
    with pytest.raises(ValueError, match="two different ops"):
        script.add([LuaOp("count", 1, 1, "return 0")])
    with pytest.raises(ValueError, match="plain word"):
        compose([LuaOp("no way", 0, 0, "return 0")])


# ---------------------------------------------------------------- a stream's expiry

async def test_a_streams_expiry_is_set_again_once_per_sixteenth_of_its_ttl(
        client: redis.Redis) -> None:
    clock = [100.0]
    streams = RedisEventStreams(client, prefix="p:", owner="me", retention=50,
                                ttl_seconds=160, channel_key=lambda c: c,
                                now=lambda: clock[0])
    stream, meta = streams.keys("s")
    before = await calls(client)
    for n in range(1, 11):
        streams.append("s", 7, n, b"{}")
        await streams.flushed()
    assert (await calls(client))["pexpire"] - before.get("pexpire", 0) == 2  # the first
    assert 150_000 < await client.pttl(stream) <= 160_000
    await client.pexpire(stream, 5_000)  # as if time had passed: seen again below
    await client.pexpire(meta, 5_000)
    clock[0] += 9.9  # not yet a sixteenth (10 s)
    streams.append("s", 7, 11, b"{}")
    await streams.flushed()
    assert await client.pttl(stream) <= 5_000
    clock[0] += 0.1
    streams.append("s", 7, 12, b"{}")
    await streams.flushed()
    assert await client.pttl(stream) > 150_000 and await client.pttl(meta) > 150_000
    assert await client.xlen(stream) == 12


async def test_a_stream_redis_lost_gets_its_expiry_at_its_next_entry(
        client: redis.Redis) -> None:
    streams = RedisEventStreams(client, prefix="p:", owner="me", retention=50,
                                ttl_seconds=160, channel_key=lambda c: c)
    stream, meta = streams.keys("s")
    streams.append("s", 7, 1, b"{}")
    await streams.flushed()
    await client.flushall()  # Redis restarted empty: the writer thinks the expiry is fresh
    streams.append("s", 7, 2, b"{}")
    await streams.flushed()
    assert await client.pttl(stream) > 150_000 and await client.pttl(meta) > 150_000
