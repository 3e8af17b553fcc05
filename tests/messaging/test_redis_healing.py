"""The options every Redis client of the server is made with (app/messaging/redis_healing.py)."""

import pytest
import redis
import redis.asyncio as aioredis
import redis.utils

from app.messaging.redis_healing import healing_options


async def test_a_new_connection_does_not_read_the_package_metadata(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each new connection read redis-py's version from the installed package (about a
    millisecond of CPU), tens of times at once when a killed worker's players reconnect;
    the version is still told to Redis."""
    def metadata_read() -> str:
        raise AssertionError("redis-py's version read again for a connection")

    monkeypatch.setattr(redis.utils, "get_lib_version", metadata_read)
    pool = aioredis.BlockingConnectionPool.from_url("redis://127.0.0.1:6379/0",
                                                    **healing_options())
    try:
        connections = [pool.make_connection() for _ in range(3)]
        assert {c.driver_info.lib_version for c in connections} == {redis.__version__}
        assert {c.driver_info.formatted_name for c in connections} == {"redis-py"}
    finally:
        await pool.disconnect()


def test_replies_are_parsed_in_c() -> None:
    """hiredis is a dependency (pyproject.toml: redis[hiredis]): with redis-py's own Python
    parser a 2-worker cluster flat out made 0.68x the acks per second at 1.5x the server
    CPU per ack (docs/operations.md, Capacity). Dropping it would pass every other test."""
    assert redis.utils.HIREDIS_AVAILABLE
