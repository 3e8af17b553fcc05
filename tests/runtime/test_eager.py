"""Eager: a coroutine's first step in the caller's turn, the rest on its own."""

import asyncio
import contextvars

import pytest

from app.runtime.eager import Eager

where: contextvars.ContextVar[str] = contextvars.ContextVar("where", default="outside")


async def test_the_first_step_runs_before_anything_already_queued() -> None:
    order: list[str] = []
    asyncio.get_running_loop().call_soon(order.append, "queued before")

    async def work() -> int:
        order.append("first step")
        await asyncio.sleep(0)
        order.append("second step")
        return 7

    started = Eager(work())
    assert order == ["first step"]  # run already, in this turn
    assert await started == 7
    assert order == ["first step", "queued before", "second step"]


async def test_its_exception_is_the_futures() -> None:
    async def fails() -> None:
        await asyncio.sleep(0)
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        await Eager(fails())

    async def fails_at_once() -> None:
        raise KeyError("now")

    started = Eager(fails_at_once())
    assert started.done()
    with pytest.raises(KeyError):
        started.result()


async def test_like_a_task_it_runs_on_its_own_once_started() -> None:
    release = asyncio.Event()
    finished: list[bool] = []

    async def work() -> None:
        await release.wait()
        finished.append(True)

    started = Eager(work())
    shielded = asyncio.ensure_future(_await(asyncio.shield(started)))
    await asyncio.sleep(0.01)
    shielded.cancel()  # the caller goes away mid-wait
    with pytest.raises(asyncio.CancelledError):
        await shielded
    assert not started.done()
    release.set()
    await started
    assert finished == [True] and started.result() is None


async def test_like_a_task_a_cancelled_awaiter_cancels_it() -> None:
    started = Eager(asyncio.sleep(10))
    waiting = asyncio.ensure_future(_await(started))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert started.cancelled()


async def _await(future: "asyncio.Future[None]") -> None:
    await future


async def test_cancel_throws_into_the_coroutine_where_it_waits() -> None:
    cleaned: list[str] = []

    async def work() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cleaned.append("saw it")
            raise

    started = Eager(work())
    assert started.cancel()
    with pytest.raises(asyncio.CancelledError):
        await started
    assert cleaned == ["saw it"] and started.cancelled()


async def test_cancel_between_two_steps_lands_at_the_next_one() -> None:
    steps: list[int] = []

    async def work() -> None:
        steps.append(1)
        await asyncio.sleep(0)  # a bare yield: nothing to cancel, the next step is queued
        steps.append(2)

    started = Eager(work())
    started.cancel()
    with pytest.raises(asyncio.CancelledError):
        await started
    assert steps == [1]


async def test_a_cancelled_wait_may_be_caught_and_the_coroutine_goes_on() -> None:
    async def work() -> str:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            return "caught"
        return "slept"

    started = Eager(work())
    started.cancel()
    assert await started == "caught"


async def test_its_context_is_its_own() -> None:
    async def work() -> str:
        where.set("inside")
        await asyncio.sleep(0)
        return where.get()

    assert await Eager(work()) == "inside"
    assert where.get() == "outside"  # the first step ran here, in a copy
