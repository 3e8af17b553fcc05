"""The Redis pub/sub backend against the real Redis at 127.0.0.1:6379."""

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as redis

from app.messaging import channels, pubsub
from app.messaging.pubsub import KeptFrame
from app.messaging.redis_pubsub import RETRY_DELAY, RedisPubSub, StreamMessage
from tests.support.clock import FakeClock
from tests.support.frames import a_game_over
from tests.support.servers import require_redis


@pytest.fixture
async def url() -> str:
    return require_redis()


@pytest.fixture
def clock() -> FakeClock:
    """Paces the readers' retries: a test moves it on instead of waiting RETRY_DELAY."""
    return FakeClock()


@pytest.fixture
async def buses(url: str, clock: FakeClock) -> AsyncIterator[tuple[RedisPubSub, RedisPubSub]]:
    """Two buses: as two server processes would hold them."""
    first, second = RedisPubSub(url, clock=clock), RedisPubSub(url, clock=clock)
    yield first, second
    await first.close()
    await second.close()


def channel() -> str:
    # The Redis is shared with other test runs: every test speaks on its own channels.
    return f"test:{uuid.uuid4().hex}"


async def waiting_to_retry(clock: FakeClock) -> None:
    """Until a reader has seen its connection fail and waits on the clock to try again."""
    async with asyncio.timeout(5):
        while clock.sleepers == 0:
            await asyncio.sleep(0.01)


async def next_message(subscription: AsyncIterator[dict[str, object]]) -> dict[str, object]:
    return await asyncio.wait_for(anext(subscription), timeout=5)


async def test_a_message_reaches_subscribers_of_every_process(
    buses: tuple[RedisPubSub, RedisPubSub],
) -> None:
    a, b = buses
    name = channel()
    on_a, on_b = await a.subscribe(name), await b.subscribe(name)
    await b.publish(name, {"type": "table_created", "table": 7})
    assert await next_message(on_a) == {"type": "table_created", "table": 7}
    assert await next_message(on_b) == {"type": "table_created", "table": 7}


async def test_messages_from_one_publisher_arrive_in_order(
    buses: tuple[RedisPubSub, RedisPubSub],
) -> None:
    a, b = buses
    name = channel()
    subscription = await a.subscribe(name)
    for n in range(50):
        await b.publish(name, {"n": n})
    assert [(await next_message(subscription))["n"] for _ in range(50)] == list(range(50))


async def test_other_channels_are_not_delivered(buses: tuple[RedisPubSub, RedisPubSub]) -> None:
    a, b = buses
    mine, other = channel(), channel()
    subscription = await a.subscribe(mine)
    await b.publish(other, {"x": 1})
    await b.publish(mine, {"x": 2})
    assert await next_message(subscription) == {"x": 2}


async def test_one_redis_subscription_per_channel_per_process(
    url: str, buses: tuple[RedisPubSub, RedisPubSub]
) -> None:
    a, _ = buses
    name = channel()
    admin = redis.Redis.from_url(url)
    try:
        local = [await a.subscribe(name) for _ in range(3)]
        assert a.subscriber_count(name) == 3
        assert dict(await admin.pubsub_numsub(name)) == {name.encode(): 1}
        for subscription in local[:2]:
            await subscription.close()
        assert dict(await admin.pubsub_numsub(name)) == {name.encode(): 1}
        await local[2].close()
        assert a.subscriber_count(name) == 0
        # The UNSUBSCRIBE goes out on the listening connection: Redis may count the
        # subscription a moment longer (it did on a busy machine).
        for _ in range(100):
            if dict(await admin.pubsub_numsub(name)) == {name.encode(): 0}:
                break
            await asyncio.sleep(0.02)
        assert dict(await admin.pubsub_numsub(name)) == {name.encode(): 0}
    finally:
        await admin.aclose()


async def test_a_closed_subscription_ends_its_stream_and_gets_nothing_more(
    buses: tuple[RedisPubSub, RedisPubSub],
) -> None:
    a, b = buses
    name = channel()
    kept, closed = await a.subscribe(name), await a.subscribe(name)
    await closed.close()
    await b.publish(name, {"after": True})
    assert await next_message(kept) == {"after": True}
    assert [m async for m in closed] == []


async def test_a_stuck_subscriber_is_cut_off_not_buffered_forever(
    buses: tuple[RedisPubSub, RedisPubSub], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pubsub, "SUBSCRIPTION_BUFFER", 5)
    a, b = buses
    name = channel()
    stuck, reader = await a.subscribe(name), await a.subscribe(name)
    for n in range(10):
        await b.publish(name, {"n": n})
    assert [(await next_message(reader))["n"] for _ in range(5)] == [0, 1, 2, 3, 4]
    await asyncio.sleep(0.1)
    received = [m["n"] async for m in stuck]
    assert received == [0, 1, 2, 3, 4]


async def test_ping_passes_on_redis_and_fails_without_it(url: str) -> None:
    bus = RedisPubSub(url)
    await bus.ping()
    await bus.close()
    nowhere = RedisPubSub("redis://127.0.0.1:1/0")
    with pytest.raises(redis.ConnectionError):
        await nowhere.ping()
    await nowhere.close()


async def test_delivery_resumes_after_the_subscriber_connection_is_killed(
    url: str, buses: tuple[RedisPubSub, RedisPubSub], clock: FakeClock
) -> None:
    a, b = buses
    name = channel()
    subscription = await a.subscribe(name)
    admin = redis.Redis.from_url(url)
    try:
        clients = await admin.client_list()
        mine = [c for c in clients if c["name"] == a.client_name and int(c["sub"]) > 0]
        assert len(mine) == 1
        await admin.client_kill_filter(_id=mine[0]["id"])
    finally:
        await admin.aclose()
    await waiting_to_retry(clock)
    await clock.advance(RETRY_DELAY)

    # What is published while the connection is down is lost (at most once); keep
    # publishing until the reconnected, resubscribed reader hears one.
    async def publish_until_heard() -> dict[str, object]:
        receive = asyncio.create_task(next_message(subscription))
        for n in range(100):
            await b.publish(name, {"n": n})
            done, _ = await asyncio.wait({receive}, timeout=0.1)
            if done:
                return receive.result()
        receive.cancel()
        raise AssertionError("no delivery after reconnect")

    heard = await publish_until_heard()
    assert isinstance(heard["n"], int)


async def test_a_prefix_keeps_deployments_on_one_redis_apart(url: str) -> None:
    blue, green = RedisPubSub(url, prefix="blue:"), RedisPubSub(url, prefix="green:")
    try:
        name = channel()
        on_blue, on_green = await blue.subscribe(name), await green.subscribe(name)
        await green.publish(name, {"from": "green"})
        await blue.publish(name, {"from": "blue"})
        assert await next_message(on_blue) == {"from": "blue"}
        assert await next_message(on_green) == {"from": "green"}
    finally:
        await blue.close()
        await green.close()


async def test_the_backend_is_chosen_by_setting(url: str) -> None:
    from app.messaging.pubsub import MemoryPubSub
    from app.messaging.pubsub_backends import make_pubsub

    assert isinstance(make_pubsub("memory"), MemoryPubSub)
    bus = make_pubsub("redis", redis_url=url, channel_prefix="x:")
    assert isinstance(bus, RedisPubSub) and bus.prefix == "x:"
    await bus.close()
    with pytest.raises(ValueError, match="'memory' or 'redis'"):
        make_pubsub("carrier-pigeon")


async def kill_subscriber_connection(url: str, bus: RedisPubSub) -> None:
    """Cut ``bus``'s subscriber connection from the Redis side (only that one: the Redis
    is shared)."""
    admin = redis.Redis.from_url(url)
    try:
        clients = await admin.client_list()
        ids = [c["id"] for c in clients if c.get("name") == bus.client_name
               and "P" in c.get("flags", "")]
        assert ids, clients
        for client_id in ids:
            await admin.client_kill_filter(_id=client_id)
    finally:
        await admin.aclose()


async def test_messages_published_while_the_subscriber_connection_is_down_arrive(
    url: str, buses: tuple[RedisPubSub, RedisPubSub], clock: FakeClock,
) -> None:
    a, b = buses
    name = channel()
    subscription = await a.subscribe(name)
    await b.publish(name, {"n": 0})
    assert await next_message(subscription) == {"n": 0}
    await kill_subscriber_connection(url, a)
    await waiting_to_retry(clock)
    for n in range(1, 21):  # published while a's reader is away
        await b.publish(name, {"n": n})
    await clock.advance(RETRY_DELAY)  # it reconnects
    for n in range(21, 31):  # and after it is back
        await b.publish(name, {"n": n})
    got = [(await next_message(subscription))["n"] for _ in range(30)]
    assert got == list(range(1, 31))  # every one, in order, none twice
    await asyncio.sleep(0.2)
    await b.publish(name, {"n": 31})
    assert await next_message(subscription) == {"n": 31}  # nothing else was queued


async def test_what_was_published_while_the_reader_was_away_arrives_with_nothing_after_it(
    url: str, buses: tuple[RedisPubSub, RedisPubSub], clock: FakeClock,
) -> None:
    """The reader blocks on its connection while all is well: the catch-up after a lost
    connection must not wait for the channel's next message (the resubscription's
    confirmation starts it; a catch-up that failed is tried again within a second)."""
    a, b = buses
    name = channel()
    subscription = await a.subscribe(name)
    await kill_subscriber_connection(url, a)
    await waiting_to_retry(clock)
    for n in range(5):  # published while a's reader is away, and nothing after
        await b.publish(name, {"n": n})
    await clock.advance(RETRY_DELAY)
    assert [(await next_message(subscription))["n"] for _ in range(5)] == list(range(5))


async def test_a_message_carries_its_channel_and_stream_id(
    buses: tuple[RedisPubSub, RedisPubSub],
) -> None:
    a, b = buses
    name = channel()
    subscription = await a.subscribe(name)
    await b.publish(name, {"n": 1})
    await b.publish(name, {"n": 2})
    first, second = await next_message(subscription), await next_message(subscription)
    assert isinstance(first, StreamMessage) and isinstance(second, StreamMessage)
    assert first.channel == name == second.channel
    assert first.stream_id < second.stream_id
    kept = await a.client.xrange(a.stream_key(name))
    assert [entry_id for entry_id, _ in kept] == [
        f"{i[0]}-{i[1]}".encode() for i in (first.stream_id, second.stream_id)]


async def test_a_frame_arrives_as_its_type_and_a_stranger_on_its_channel_is_dropped(
    buses: tuple[RedisPubSub, RedisPubSub], caplog: pytest.LogCaptureFixture,
) -> None:
    """On a channel that carries frames (a match's, a player's...) a message is read from
    its JSON as its type of app/wire/ in one pass, with where it was kept; anything else
    sent there is no frame, and is dropped and said rather than handed on."""
    a, b = buses
    name = channels.match(uuid.uuid4().int % 2**31)
    subscription = await a.subscribe(name)
    await b.publish(name, {"type": "progress", "match_id": 5})  # no progress line: no frame
    await b.publish(name, a_game_over(2, match_id=5))
    got = await next_message(subscription)
    assert isinstance(got, KeptFrame) and got.frame == a_game_over(2, match_id=5)
    assert got.channel == name and got.stream_id > (0, 0)
    assert "no frame" in caplog.text


async def kept(bus: RedisPubSub, name: str) -> int:
    return len(await bus.client.xrange(bus.stream_key(name)))


async def test_publish_elsewhere_sends_only_where_another_process_listens(
    buses: tuple[RedisPubSub, RedisPubSub],
) -> None:
    # What gates the echo of a player's acks to their tabs on other processes.
    a, b = buses
    name = channel()
    await pubsub.publish_elsewhere(a, name, {"k": "nobody"})
    # Nobody listens: not published, but kept (a stream whose process died catches up)
    assert await kept(a, name) == 1
    mine = await a.subscribe(name)
    also_mine = await a.subscribe(name)  # two local subscribers: still one process
    await pubsub.publish_elsewhere(a, name, {"k": "only here"})
    assert await kept(a, name) == 2
    theirs = await b.subscribe(name)
    await pubsub.publish_elsewhere(a, name, {"k": "to b"})
    assert await next_message(theirs) == {"k": "to b"}
    assert await next_message(mine) == {"k": "to b"}  # published: every subscriber has it
    await pubsub.publish_elsewhere(b, name, {"k": "to a"})  # b listens, and a does too
    assert await next_message(also_mine) == {"k": "to b"}
    assert await next_message(also_mine) == {"k": "to a"}
    await theirs.close()
    await pubsub.publish_elsewhere(a, name, {"k": "b left"})
    await pubsub.publish_elsewhere(b, name, {"k": "a listens"})  # b does not, a does
    assert await next_message(mine) == {"k": "to a"}
    assert await next_message(mine) == {"k": "a listens"}  # "b left" was not published
    assert await kept(a, name) == 6
    await mine.close()
    await also_mine.close()
    memory = pubsub.MemoryPubSub()
    alone = await memory.subscribe(name)
    await pubsub.publish_elsewhere(memory, name, {"k": "one process"})
    await alone.close()
    assert [m async for m in alone] == []  # one process: never published


async def test_a_closed_bus_leaves_no_connection_open(url: str) -> None:
    """Its pool's connections close with it (the batch script's kept one included): a
    pool given to a redis-py client is not closed by the client."""
    name = f"closing-{uuid.uuid4().hex[:8]}"
    bus = RedisPubSub(url, client_name=name)
    subscription = await bus.subscribe(channel())
    await bus.publish(channel(), {"type": "table_created", "table": 1})
    admin = redis.Redis.from_url(url)
    try:
        assert [c for c in await admin.client_list() if c["name"] == name]
        await subscription.close()
        await bus.close()
        async with asyncio.timeout(5):
            while [c for c in await admin.client_list() if c["name"] == name]:
                await asyncio.sleep(0.02)
    finally:
        await admin.aclose()
