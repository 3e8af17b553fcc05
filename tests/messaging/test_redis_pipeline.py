"""A process's Redis writes share one pipeline at a time (`app.messaging.redis_pipeline`):
an action's fan-out, the peers' news and the event streams' entries queued together cost
one round trip and one script call, against the real Redis at 127.0.0.1:6379."""

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as redis

from app.messaging import channels
from app.messaging.redis_pubsub import RedisPubSub
from app.messaging.redis_scripts import BatchScript, OpCall
from app.messaging.redis_streams import RedisEventStreams
from app.rooms import peers
from app.rooms.duel import DuelService
from app.rooms.store import MemoryStore, StoredGame, StoredMatch
from tests.support.duel_layouts import RULES, WINNING_LINE, near_finished_layout
from tests.support.frames import kind
from tests.support.servers import require_redis

ANN, BOB, MATCH = 1, 2, 10


@pytest.fixture
def prefix() -> str:
    # The Redis is shared with other test runs: every test writes under its own prefix.
    return f"t{uuid.uuid4().hex[:8]}:"


@pytest.fixture
async def bus(prefix: str) -> AsyncIterator[RedisPubSub]:
    bus = RedisPubSub(require_redis(), prefix=prefix)
    yield bus
    await bus.close()


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of writes in each batch (one round trip, one script call) sent from now
    on."""
    sent: list[int] = []
    run = BatchScript.run

    async def counted(self: BatchScript, calls: list[OpCall]) -> list[Any]:
        sent.append(len(calls))
        return await run(self, calls)

    monkeypatch.setattr(BatchScript, "run", counted)
    return sent


async def next_message(subscription: AsyncIterator[Any]) -> Any:
    return await asyncio.wait_for(anext(subscription), timeout=5)


async def test_an_actions_fan_out_and_news_to_peers_cost_one_round_trip(
    bus: RedisPubSub, prefix: str, round_trips: list[int],
) -> None:
    store = MemoryStore()
    store.add_match(StoredMatch(
        match_id=MATCH, rules=RULES, time_limit_s=600.0,
        games=[StoredGame(101, ANN), StoredGame(102, BOB)],
        deal={"layout": near_finished_layout()}))
    duels = DuelService(store=store, pubsub=bus, peers=True)
    other = RedisPubSub(require_redis(), prefix=prefix)

    async def follow(channel: str) -> None:
        return None

    try:
        await duels.open_game(player_id=ANN, match_id=MATCH, follow=follow)
        await duels.open_game(player_id=BOB, match_id=MATCH, follow=follow)
        await bus.pipeline.idle()
        # Another process follows the match: it must get each message.
        progress = await other.subscribe(channels.match(MATCH))
        news = await other.subscribe(peers.channel(MATCH))
        watch = await other.subscribe(channels.watch(MATCH, ANN))
        round_trips.clear()
        ack = await duels.act(player_id=ANN, match_id=MATCH, seq=1, action=WINNING_LINE[0])
        assert kind(ack) == "ack"
        await bus.pipeline.idle()
        # The watch frame, the progress line and the peers' news: one pipeline, not three.
        assert round_trips == [3]
        step = (await next_message(watch)).frame
        assert kind(step) == "watch" and step.seq == 1
        line = (await next_message(progress)).frame
        assert kind(line) == "progress" and line.progress.player_id == ANN
        told = await next_message(news)
        assert told["seq"] == 1 and told["player"] == ANN
    finally:
        await duels.close()
        await other.close()


async def test_stream_entries_and_publishes_queued_together_share_a_round_trip(
    bus: RedisPubSub, prefix: str, round_trips: list[int],
) -> None:
    streams = RedisEventStreams(bus.client, prefix=prefix, owner=bus.client_name,
                                retention=50, ttl_seconds=60, channel_key=bus.stream_key,
                                pipeline=bus.pipeline)
    written: list[int] = []
    channel = f"test:{uuid.uuid4().hex}"
    streams.append("s1", 7, 1, b'{"n":1}', then=lambda: written.append(1))
    published = bus.post(channel, {"n": 1})
    streams.append("s1", 7, 2, b'{"n":2}', then=lambda: written.append(2))
    await published
    await streams.flushed()
    assert round_trips == [3] and written == [1, 2]
    client = redis.Redis.from_url(require_redis())
    try:
        assert await client.xlen(f"{prefix}es:{{s1}}") == 2
        assert await client.xlen(bus.stream_key(channel)) == 1
    finally:
        await client.aclose()


async def test_a_write_redis_refuses_fails_only_its_own_writer(
    bus: RedisPubSub, prefix: str, round_trips: list[int],
) -> None:
    """One pipeline, two writers: the stream entry Redis refuses (its key holds a string)
    still lets its frame go out (play goes on), and the publish beside it is made."""
    streams = RedisEventStreams(bus.client, prefix=prefix, owner=bus.client_name,
                                retention=50, ttl_seconds=60, channel_key=bus.stream_key,
                                pipeline=bus.pipeline)
    await bus.client.set(f"{prefix}es:{{broken}}", "not a stream")
    channel = f"test:{uuid.uuid4().hex}"
    listener = await bus.subscribe(channel)
    round_trips.clear()
    written: list[str] = []
    streams.append("broken", 7, 1, b'{"n":1}', then=lambda: written.append("sent anyway"))
    await bus.post(channel, {"n": 1})
    await streams.flushed()
    assert round_trips == [2] and written == ["sent anyway"]
    assert await next_message(listener) == {"n": 1}
    assert bus.gapped == []  # nothing of the bus was lost
