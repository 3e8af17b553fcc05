"""KeyedLock: one holder per key at a time, keys independent, nothing kept when idle."""

import asyncio

from app.runtime.keyed_lock import KeyedLock


async def test_one_holder_per_key_and_keys_apart() -> None:
    locks = KeyedLock()
    inside: dict[str, int] = {"a": 0, "b": 0}
    most: dict[str, int] = {"a": 0, "b": 0}
    order: list[str] = []

    async def hold(key: str, name: str) -> None:
        async with locks.hold(key):
            inside[key] += 1
            most[key] = max(most[key], inside[key])
            order.append(name)
            await asyncio.sleep(0.01)
            inside[key] -= 1

    await asyncio.gather(hold("a", "a1"), hold("a", "a2"), hold("b", "b1"), hold("a", "a3"))
    assert most == {"a": 1, "b": 1}  # never two holders of one key
    assert order[:2] == ["a1", "b1"]  # another key does not wait
    assert [n for n in order if n.startswith("a")] == ["a1", "a2", "a3"]  # in turn
    assert len(locks) == 0


async def test_a_holder_that_fails_lets_the_next_in() -> None:
    locks = KeyedLock()

    async def fail() -> None:
        async with locks.hold(1):
            raise ValueError("boom")

    failing = asyncio.create_task(fail())
    async with locks.hold(1):
        pass
    assert isinstance((await asyncio.gather(failing, return_exceptions=True))[0], ValueError)
    async with locks.hold(1):
        pass
    assert len(locks) == 0
