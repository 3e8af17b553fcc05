"""Commands packed by hiredis (app/messaging/redis_packing.py): the bytes and the refusals of
redis-py's own Python packer, on every client the server makes."""

from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio as redis
from hypothesis import given
from hypothesis import strategies as st
from redis.asyncio.connection import Connection
from redis.exceptions import DataError

from app.messaging.redis_healing import healing_options
from app.messaging.redis_packing import HiredisPackedConnection, pack_command
from app.messaging.redis_presence import SharedPresence
from app.messaging.redis_pubsub import RedisPubSub
from tests.support.servers import require_redis

PYTHON_PACKER = Connection()
ARGUMENTS = st.one_of(
    st.text(), st.binary(), st.integers(), st.floats(allow_nan=False),
    st.binary().map(bytearray), st.binary().map(memoryview))


def python_packed(*args: Any) -> bytes:
    return b"".join(bytes(part) for part in PYTHON_PACKER.pack_command(*args))


@given(st.sampled_from(["EVALSHA", "SET", "CONFIG GET", b"CLIENT SETNAME", b"XADD"]),
       st.lists(ARGUMENTS, max_size=40))
def test_the_bytes_are_redis_pys_own(command: str | bytes, args: list[Any]) -> None:
    assert b"".join(pack_command(command, *args)) == python_packed(command, *args)


@pytest.mark.parametrize("refused", [None, True, False, object(), [1], {"a": 1}])
def test_what_redis_py_refuses_is_refused_with_its_error(refused: Any) -> None:
    with pytest.raises(DataError) as python:
        python_packed("SET", "key", refused)
    with pytest.raises(DataError) as ours:
        pack_command("SET", "key", refused)
    assert str(ours.value) == str(python.value)


async def test_every_client_of_the_server_packs_with_hiredis() -> None:
    """The pools' connections and the pub/sub reader's own; a ``rediss://`` URL keeps
    redis-py's TLS connection (the scheme's class wins over the option)."""
    url = require_redis()
    pubsub = RedisPubSub(url)
    presence = SharedPresence(url, proc="packing-test", pubsub=pubsub)
    try:
        for client in (pubsub.client, presence._redis, pubsub._subscriber):
            connection = client.connection_pool.make_connection()
            assert isinstance(connection, HiredisPackedConnection)
            await client.ping()
    finally:
        await presence.close()
        await pubsub.close()
    tls = redis.ConnectionPool.from_url("rediss://127.0.0.1:6380/0", **healing_options())
    assert tls.connection_class is redis.SSLConnection
