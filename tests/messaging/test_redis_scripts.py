"""Scripts in pipelines by their SHA alone (app/messaging/redis_scripts.py), on a Redis of
the test's own: its command counts and its script cache are the test's alone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as redis

from app.messaging.redis_scripts import Publish, ScriptCall, execute
from tests.support.own_redis import OwnRedis, own_redis  # noqa: F401 (fixture)

COUNT = "return redis.call('INCRBY', KEYS[1], ARGV[1])"


@pytest.fixture
async def client(own_redis: OwnRedis) -> AsyncIterator[redis.Redis]:  # noqa: F811
    connection = redis.Redis.from_url(own_redis.url)
    yield connection
    await connection.aclose()


async def calls(client: redis.Redis) -> dict[str, int]:
    stats: dict[str, Any] = await client.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(entry["calls"])
            for name, entry in stats.items()}


async def test_a_batch_of_script_calls_asks_nothing_before_it(client: redis.Redis) -> None:
    count = client.register_script(COUNT)
    await client.script_load(COUNT)
    before = await calls(client)
    answers = await execute(client, [ScriptCall(count, ["k"], [1]), Publish("c", "hello"),
                                     ScriptCall(count, ["k"], [2])])
    assert answers == [1, 0, 3]  # nobody subscribes to "c"
    after = await calls(client)
    assert after.get("script|exists", 0) == before.get("script|exists", 0)  # no round trip
    assert after["evalsha"] - before.get("evalsha", 0) == 2


async def test_a_script_redis_does_not_have_is_loaded_and_each_call_runs_once(
        client: redis.Redis) -> None:
    count = client.register_script(COUNT)
    assert await execute(client, [ScriptCall(count, ["k"], [1])]) == [1]  # never loaded
    await client.script_flush()  # as after a restart of Redis
    answers = await execute(client, [ScriptCall(count, ["k"], [10]), Publish("c", "x"),
                                     ScriptCall(count, ["k"], [100])])
    assert answers == [11, 0, 111]  # in their order, each once
    assert int(await client.get("k") or 0) == 111
