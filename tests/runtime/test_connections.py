"""The connection registry: gauge, per-player cap, close and drain."""

import asyncio

import pytest

from app.runtime import metrics
from app.runtime.connections import ConnectionRegistry, TooManyConnections


class FakeSocket:
    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code


def gauge() -> float:
    return float(metrics.CONNECTIONS._value.get())


async def test_tracking_moves_the_gauge_up_and_back_down() -> None:
    registry = ConnectionRegistry(max_per_player=2)
    start = gauge()
    async with registry.track(FakeSocket(), player="a"):
        assert gauge() == start + 1
        assert registry.count("a") == 1
    assert gauge() == start
    assert len(registry) == 0


async def test_a_player_over_the_cap_is_refused_others_are_not() -> None:
    registry = ConnectionRegistry(max_per_player=2)
    async with registry.track(FakeSocket(), player="a"), registry.track(FakeSocket(), player="a"):
        with pytest.raises(TooManyConnections, match="at most 2"):
            async with registry.track(FakeSocket(), player="a"):
                pass
        async with registry.track(FakeSocket(), player="b"):
            assert len(registry) == 3
        assert registry.count("a") == 2
    async with registry.track(FakeSocket(), player="a"):
        assert registry.count("a") == 1


async def test_close_all_then_drain_waits_for_sessions_to_end() -> None:
    registry = ConnectionRegistry(max_per_player=4)
    socket = FakeSocket()
    ended = asyncio.Event()

    async def session() -> None:
        async with registry.track(socket, player="a"):
            while socket.closed_with is None:
                await asyncio.sleep(0.01)
        ended.set()

    task = asyncio.create_task(session())
    await asyncio.sleep(0.02)
    await registry.close_all()
    assert await registry.drain(timeout=1.0)
    assert socket.closed_with == 1012
    assert ended.is_set()
    await task


async def test_drain_reports_a_session_that_outlives_the_timeout() -> None:
    registry = ConnectionRegistry(max_per_player=4)
    async with registry.track(FakeSocket(), player="a"):
        assert not await registry.drain(timeout=0.05)


async def test_release_is_idempotent_and_admit_pairs_with_it() -> None:
    registry = ConnectionRegistry(max_per_player=1)
    socket = FakeSocket()
    start = gauge()
    registry.admit(socket, player="a")
    with pytest.raises(TooManyConnections):
        registry.admit(FakeSocket(), player="a")
    registry.release(socket, player="a")
    registry.release(socket, player="a")
    assert gauge() == start
    assert len(registry) == 0
