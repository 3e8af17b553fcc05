"""A Redis of the test's own stopped and started again under the bus and the event
streams: nothing published meanwhile is lost silently, and the pools heal."""

import asyncio
import uuid
from collections.abc import AsyncIterator

import msgspec
import pytest

from app.messaging.redis_pubsub import GAP as GAP_MARKER
from app.messaging.redis_pubsub import RedisPubSub
from app.messaging.redis_streams import RedisEventStreams
from tests.support.own_redis import OwnRedis, own_redis  # noqa: F401 (fixture)

GAP = msgspec.to_builtins(GAP_MARKER)  # as it arrives through Redis: a JSON object


async def next_message(subscription: AsyncIterator[dict[str, object]]) -> dict[str, object]:
    return await asyncio.wait_for(anext(subscription), timeout=10)


async def a_channel_heard(listener: RedisPubSub, publisher: RedisPubSub
                          ) -> tuple[str, AsyncIterator[dict[str, object]]]:
    """A fresh channel that the listener follows, a first message already through."""
    channel = f"test:{uuid.uuid4().hex}"
    subscription = await listener.subscribe(channel)
    await publisher.publish(channel, {"n": 0})
    assert await next_message(subscription) == {"n": 0}
    return channel, subscription


async def gap_marker_sent(publisher: RedisPubSub) -> None:
    async with asyncio.timeout(10):  # the marker goes out once Redis answers again
        while publisher.gapped:
            await asyncio.sleep(0.05)


@pytest.fixture
async def buses(own_redis: OwnRedis) -> AsyncIterator[tuple[RedisPubSub, RedisPubSub]]:  # noqa: F811
    first, second = RedisPubSub(own_redis.url), RedisPubSub(own_redis.url)
    yield first, second
    await first.close()
    await second.close()


async def test_what_is_published_while_redis_is_away_comes_back_as_a_gap_marker(
    own_redis: OwnRedis, buses: tuple[RedisPubSub, RedisPubSub],  # noqa: F811
) -> None:
    listener, publisher = buses
    channel, subscription = await a_channel_heard(listener, publisher)

    own_redis.stop()
    await publisher.publish(channel, {"n": 1})  # lost: no exception for the caller
    assert publisher.gapped == [channel]
    own_redis.start()

    await gap_marker_sent(publisher)
    await publisher.publish(channel, {"n": 2})
    assert await next_message(subscription) == GAP  # before anything newer
    assert await next_message(subscription) == {"n": 2}


async def test_a_hung_redis_fails_a_publish_instead_of_holding_it_and_the_game(
    own_redis: OwnRedis, buses: tuple[RedisPubSub, RedisPubSub],  # noqa: F811
) -> None:
    # A publish waits for Redis, and behind it the game's next step: with Redis hung
    # (connections open, no answer) it must end, the message known lost, not wait forever.
    listener, publisher = buses
    channel, subscription = await a_channel_heard(listener, publisher)

    own_redis.pause()
    try:
        await asyncio.wait_for(publisher.publish(channel, {"n": 1}), timeout=15)
        assert publisher.gapped == [channel]
    finally:
        own_redis.resume()
    await gap_marker_sent(publisher)
    await publisher.publish(channel, {"n": 2})
    got = [await next_message(subscription)]
    while got[-1] != {"n": 2}:
        got.append(await next_message(subscription))
    # The hung Redis may still run the command it had buffered, once: never twice (a
    # timed-out publish is not sent again), and the gap marker follows it all the same.
    assert got in ([GAP, {"n": 2}], [{"n": 1}, GAP, {"n": 2}]), got


async def test_a_publish_after_the_outage_carries_the_gap_marker_ahead_of_it(
    own_redis: OwnRedis, buses: tuple[RedisPubSub, RedisPubSub],  # noqa: F811
) -> None:
    listener, publisher = buses
    channel = f"test:{uuid.uuid4().hex}"
    subscription = await listener.subscribe(channel)
    own_redis.stop()
    await publisher.publish(channel, {"n": 1})
    own_redis.start()
    for n in range(2, 40):  # the first ones may still find Redis restarting
        await publisher.publish(channel, {"n": n})
    got = [await next_message(subscription)]
    while got[-1] != {"n": 39}:
        got.append(await next_message(subscription))
    first_kept = next(i for i, message in enumerate(got) if message.get("n"))
    assert GAP in got[:first_kept + 1] and got.count(GAP) == 1, got
    numbers = [message["n"] for message in got if message != GAP]
    assert numbers == sorted(numbers) and 1 not in numbers


async def test_after_a_restart_the_pooled_connections_heal_and_no_entry_is_lost(
    own_redis: OwnRedis, buses: tuple[RedisPubSub, RedisPubSub],  # noqa: F811
) -> None:
    listener, publisher = buses
    streams = RedisEventStreams(publisher.client, prefix="t:", owner="me", retention=100,
                                ttl_seconds=60, channel_key=publisher.stream_key)
    written: list[int] = []
    channel = f"test:{uuid.uuid4().hex}"
    subscription = await listener.subscribe(channel)
    for n in (1, 2, 3):  # the pool holds connections to this Redis now
        streams.append("s1", 7, n, b'{"n":%d}' % n, then=lambda n=n: written.append(n))
        await publisher.publish(channel, {"n": n})
    await streams.flushed()
    assert [(await next_message(subscription))["n"] for _ in range(3)] == [1, 2, 3]

    own_redis.restart()  # every pooled connection now leads to a closed socket
    await asyncio.sleep(0.7)  # the listener's reader is back (RETRY_DELAY)
    streams.append("s1", 7, 4, b'{"n":4}', then=lambda: written.append(4))
    await streams.flushed()
    await publisher.publish(channel, {"n": 4})
    assert publisher.gapped == []  # nothing was lost: no gap to announce
    assert await next_message(subscription) == {"n": 4}
    assert written == [1, 2, 3, 4]
    kept = await publisher.client.xrange(streams.keys("s1")[0])
    assert [entry_id for entry_id, _ in kept] == [b"4-1"]  # written to the new Redis
