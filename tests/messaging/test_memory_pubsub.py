"""The in-process pubsub: order, a waiting reader, close, a stuck subscriber cut off."""

import asyncio

import pytest

from app.messaging import pubsub
from app.messaging.pubsub import MemoryPubSub, may_deliver


async def test_a_waiting_reader_gets_messages_in_order_and_close_ends_it() -> None:
    bus = MemoryPubSub()
    sub = await bus.subscribe("c")
    received: list[int] = []

    async def read() -> None:
        async for message in sub:
            received.append(message["n"])

    reader = asyncio.create_task(read())
    await asyncio.sleep(0)  # the reader waits on an empty queue
    for n in range(3):
        await bus.publish("c", {"n": n})
    await asyncio.sleep(0)
    await bus.publish("c", {"n": 3})
    await sub.close()
    await asyncio.wait_for(reader, 1)
    assert received == [0, 1, 2, 3]
    await bus.publish("c", {"n": 4})
    assert [m async for m in sub] == []


async def test_a_cancelled_reader_does_not_lose_the_next_message() -> None:
    bus = MemoryPubSub()
    sub = await bus.subscribe("c")
    waiting = asyncio.create_task(sub.__anext__())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await bus.publish("c", {"n": 1})
    assert await asyncio.wait_for(sub.__anext__(), 1) == {"n": 1}


async def test_a_stuck_subscriber_is_cut_off_after_what_it_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pubsub, "SUBSCRIPTION_BUFFER", 5)
    bus = MemoryPubSub()
    stuck = await bus.subscribe("c")
    for n in range(10):
        await bus.publish("c", {"n": n})
    assert [m["n"] async for m in stuck] == [0, 1, 2, 3, 4]


async def test_may_deliver_knows_the_subscribers_of_this_process() -> None:
    bus = MemoryPubSub()
    assert not may_deliver(bus, "c")
    sub = await bus.subscribe("c")
    assert may_deliver(bus, "c") and not may_deliver(bus, "d")
    await sub.close()
    assert not may_deliver(bus, "c")


async def test_a_forwarded_subscription_hands_messages_over_after_the_publisher_in_order(
) -> None:
    bus = MemoryPubSub()
    a, b = await bus.subscribe("a"), await bus.subscribe("b")
    await bus.publish("a", {"n": 0})  # queued before forwarding: handed over first
    got: list[tuple[str, int]] = []
    a.forward(lambda message: got.append(("a", message["n"])))
    b.forward(lambda message: got.append(("b", message["n"])))
    for channel, n in (("a", 1), ("b", 2), ("a", 3)):
        await bus.publish(channel, {"n": n})
    assert got == []  # not inside the publisher's step
    await asyncio.sleep(0)
    assert got == [("a", 0), ("a", 1), ("b", 2), ("a", 3)]  # across channels too
    await bus.publish("a", {"n": 4})
    await a.close()  # published, not yet handed over: dropped, as from a closed queue
    await asyncio.sleep(0)
    assert got[-1] == ("a", 3)


async def test_a_failing_forward_handler_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = MemoryPubSub()
    sub = await bus.subscribe("c")
    got: list[int] = []

    def handler(message: dict[str, int]) -> None:
        if message["n"] == 0:
            raise RuntimeError("boom")
        got.append(message["n"])

    sub.forward(handler)
    await bus.publish("c", {"n": 0})
    await bus.publish("c", {"n": 1})
    await asyncio.sleep(0)
    assert got == [1] and "failed to take a message" in caplog.text


async def test_one_channel_reaches_queued_and_forwarding_subscribers_alike() -> None:
    # Forwarding subscribers of a channel share one loop callback per message: each still
    # gets every message in order, after the publisher's step, a failing one stops none
    # of the others, and a queued subscriber of the same channel has it at once.
    bus = MemoryPubSub()
    first, failing, queued = [await bus.subscribe("c") for _ in range(3)]
    got: list[tuple[str, int]] = []
    first.forward(lambda message: got.append(("first", message["n"])))

    def fail(message: dict[str, int]) -> None:
        got.append(("failing", message["n"]))
        raise RuntimeError("boom")

    failing.forward(fail)
    for n in range(3):
        await bus.publish("c", {"n": n})
    assert got == [] and queued._queue.qsize() == 3
    await asyncio.sleep(0)
    assert sorted(got) == [(name, n) for name in ("failing", "first") for n in range(3)]
    assert [n for name, n in got if name == "first"] == [0, 1, 2]
    await bus.publish("c", {"n": 3})
    await first.close()  # published, not yet handed over: dropped, as from a closed queue
    await asyncio.sleep(0)
    assert ("first", 3) not in got and ("failing", 3) in got
