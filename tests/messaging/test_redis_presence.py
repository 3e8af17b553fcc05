"""Shared presence and the global connection cap against the real Redis: two registries
stand for two server processes (tests/cluster runs real processes)."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest
import redis.asyncio as redis

from app.messaging import channels
from app.messaging.pubsub import MemoryPubSub, Subscription
from app.messaging.redis_presence import POOL_SIZE, SharedPresence
from app.messaging.redis_pubsub import RedisPubSub
from app.runtime.connections import TooManyConnections
from tests.support.servers import require_redis

TTL, HEARTBEAT = 1.0, 0.2


@dataclass
class Process:
    bus: RedisPubSub
    presence: SharedPresence


@pytest.fixture
async def pair() -> AsyncIterator[tuple[Process, Process]]:
    url = require_redis()
    prefix = f"t{uuid.uuid4().hex[:8]}:"  # the Redis is shared: our own keys and channels
    made = []
    for _ in range(2):
        bus = RedisPubSub(url, prefix=prefix)
        presence = SharedPresence(url, pubsub=bus, prefix=prefix, ttl=TTL,
                                  heartbeat=HEARTBEAT, max_per_player=3)
        await presence.start()
        made.append(Process(bus, presence))
    yield made[0], made[1]
    for process in made:
        await process.presence.close()
        await process.bus.close()


async def eventually(check: Callable[[], bool], timeout: float = 5.0) -> float:
    """Seconds until `check()` holds; fails after `timeout`."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > timeout:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.01)
    return time.monotonic() - started


async def events(subscription: Subscription, within: float) -> list[bool]:
    seen = []
    try:
        async with asyncio.timeout(within):
            async for message in subscription:
                seen.append(message.online)
    except TimeoutError:
        pass
    return seen


async def test_a_player_on_one_process_is_online_on_the_other(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    watcher = await a.bus.subscribe(channels.presence(7))
    assert not b.presence.is_online(7)
    await a.presence.admit(7)
    assert a.presence.is_online(7)
    await eventually(lambda: b.presence.is_online(7))
    # A second connection elsewhere changes nothing global: no event.
    await b.presence.admit(7)
    await a.presence.release(7)
    for _ in range(3):  # heartbeats on both sides, driven rather than waited for
        await a.presence.beat()
        await b.presence.beat()
    assert a.presence.is_online(7) and b.presence.is_online(7)
    await b.presence.release(7)
    await eventually(lambda: not a.presence.is_online(7) and not b.presence.is_online(7))
    # The watcher saw the global state change, once each way.
    assert await events(watcher, within=0.5) == [True, False]


async def test_listeners_hear_changes_made_elsewhere(pair: tuple[Process, Process]) -> None:
    a, b = pair
    heard: list[tuple[int, bool]] = []

    async def listener(player_id: int) -> None:
        heard.append((player_id, b.presence.is_online(player_id)))

    b.presence.on_change(listener)
    await a.presence.admit(8)
    await eventually(lambda: (8, True) in heard)
    await a.presence.release(8)
    await eventually(lambda: (8, False) in heard)
    assert heard == [(8, True), (8, False)]


async def test_the_connection_cap_holds_across_processes(pair: tuple[Process, Process]) -> None:
    a, b = pair
    await a.presence.admit(9)
    await a.presence.admit(9)
    await b.presence.admit(9)
    for process in (a, b):
        with pytest.raises(TooManyConnections):
            await process.presence.admit(9)
    assert a.presence.connections_here(9) == 2 and b.presence.connections_here(9) == 1
    await a.presence.release(9)
    await b.presence.admit(9)  # a slot came free on the other process


async def test_a_crashed_process_disappears_within_the_bound(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    watcher = await b.bus.subscribe(channels.presence(10))
    for _ in range(3):
        await a.presence.admit(10)
    await eventually(lambda: b.presence.is_online(10))
    with pytest.raises(TooManyConnections):
        await b.presence.admit(10)
    # "Crash": the heartbeat stops, nothing is cleaned up.
    for task in a.presence._tasks:
        task.cancel()
    crashed = time.monotonic()
    await eventually(lambda: not b.presence.is_online(10), timeout=TTL + 3 * HEARTBEAT + 1)
    assert time.monotonic() - crashed <= TTL + 2 * HEARTBEAT + 0.5
    await b.presence.admit(10)  # not locked out any more
    assert await events(watcher, within=0.3) == [True, False, True]


async def test_a_process_that_was_reaped_registers_again(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    await a.presence.admit(11)
    await eventually(lambda: b.presence.is_online(11))
    for task in a.presence._tasks:  # frozen longer than the ttl: the other reaps it
        task.cancel()
    await eventually(lambda: not b.presence.is_online(11), timeout=TTL + 2)
    await a.presence.beat()  # it wakes up: its connection is still open, so it counts again
    await eventually(lambda: b.presence.is_online(11))


async def test_many_players_leaving_at_once_are_all_counted_in_redis(
        pair: tuple[Process, Process], caplog: pytest.LogCaptureFixture) -> None:
    """Bug: past 100 changes at once the client's pool refused a connection, and 500
    players leaving a worker together were counted "locally", as if Redis were away."""
    a, b = pair
    players = range(1000, 1000 + 3 * POOL_SIZE)
    await asyncio.gather(*(a.presence.admit(p) for p in players))
    await eventually(lambda: all(b.presence.is_online(p) for p in players))
    await asyncio.gather(*(a.presence.release(p) for p in players))
    assert "counted locally" not in caplog.text  # every change reached Redis
    await eventually(lambda: not any(b.presence.is_online(p) for p in players))


async def test_without_redis_connections_are_still_admitted() -> None:
    # Nothing listens on port 1: every Redis call fails at once.
    presence = SharedPresence("redis://127.0.0.1:1/0", pubsub=MemoryPubSub(), ttl=TTL,
                              heartbeat=HEARTBEAT, max_per_player=1)
    await presence.start()  # logs, does not raise: the server still starts
    await presence.admit(12)
    await presence.admit(12)  # the global cap needs Redis; the per-process one still holds
    assert presence.is_online(12) and presence.connections_here(12) == 2
    await presence.release(12)
    await presence.release(12)
    assert not presence.is_online(12)
    await presence.close()


async def test_presence_comes_back_after_redis_lost_its_data(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    for _ in range(5):  # versions well above what they restart from
        await a.presence.admit(99)
        await a.presence.release(99)
    await a.presence.admit(13)
    await eventually(lambda: b.presence.is_online(13))
    await b.presence.beat()
    client = redis.Redis.from_url(require_redis())
    keys = [key async for key in client.scan_iter(match=f"{a.presence.prefix}presence:*")]
    await client.delete(*keys)  # a Redis restart without persistence
    await client.aclose()
    await a.presence.beat()  # not registered any more: it writes its numbers again
    await b.presence.beat()
    assert b.presence.is_online(13)
    await a.presence.release(13)  # new versions start low again: still heard
    await eventually(lambda: not b.presence.is_online(13))


async def test_close_ends_a_heartbeat_that_swallowed_its_cancellation() -> None:
    """Bug: a cancellation landing inside a Redis call was swallowed (redis-py), the
    heartbeat beat on, and `close` waited for it forever (a hung test teardown)."""
    presence = SharedPresence(require_redis(), pubsub=MemoryPubSub(),
                              prefix=f"t{uuid.uuid4().hex[:8]}:", ttl=TTL,
                              heartbeat=0.01, max_per_player=1)
    await presence.start()
    beats = 0

    async def swallowing_beat() -> None:
        nonlocal beats
        beats += 1
        with contextlib.suppress(asyncio.CancelledError):  # as the library did
            await asyncio.sleep(0.05)

    presence.beat = swallowing_beat  # type: ignore[method-assign]
    while beats < 2:  # the heartbeat is in a beat, or about to be
        await asyncio.sleep(0.01)
    closing = asyncio.create_task(presence.close())
    done, _ = await asyncio.wait([closing], timeout=5)
    if not done:  # end what the bug left running, so that the failure is all that hangs
        async def ending_beat() -> None:
            raise asyncio.CancelledError

        presence.beat = ending_beat  # type: ignore[method-assign]
        await closing
    assert done, "close waited on a heartbeat that went on beating"
