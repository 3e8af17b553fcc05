"""Commands to Redis packed by hiredis, as redis-py's synchronous client already does.

redis-py's asyncio connection packs every command in Python (``pack_command``: an
encode, a ``str(len())`` and a join per argument). A batch script call carries tens of
arguments, and at human pace each action sends its own: the packer was ~5 % of a worker's
CPU in a profile of ``bench.load --cluster 2 --players 1000 --pace human``, and hiredis
(already installed: it parses the replies) packs the same bytes about 6x faster. The
synchronous client's ``HiredisRespSerializer`` is followed line for line, so what may be
sent and the errors for what may not are redis-py's own.
"""

from __future__ import annotations

from typing import Any

import hiredis
from redis.asyncio.connection import Connection
from redis.exceptions import DataError


def pack_command(*args: Any) -> list[bytes]:
    """One command in the Redis protocol, the bytes redis-py's Python packer gives, and
    its ``DataError`` for an argument it cannot send (``None``, a bool, another type)."""
    if isinstance(args[0], str):  # "CONFIG GET" sent as two words, as redis-py does
        args = tuple(args[0].encode().split()) + args[1:]
    elif b" " in args[0]:
        args = tuple(args[0].split()) + args[1:]
    if bool in map(type, args):  # hiredis would send True as 1; redis-py refuses it
        raise _refused(True)
    try:
        return [hiredis.pack_command(args)]
    except TypeError:  # a bytearray (sent as bytes), or an argument refused below
        return [hiredis.pack_command(tuple(map(_sendable, args)))]


def _sendable(arg: Any) -> Any:
    if isinstance(arg, (bytearray, memoryview)):
        return bytes(arg)
    if isinstance(arg, (bytes, str, int, float)):
        return arg
    raise _refused(arg)


def _refused(arg: Any) -> DataError:
    return DataError(f"Invalid input of type: '{type(arg).__name__}'. Convert to a bytes, "
                     "string, int or float first.")


class HiredisPackedConnection(Connection):
    """A TCP connection whose commands hiredis packs (``connection_class`` of a pool).
    A ``unix://`` or ``rediss://`` URL keeps redis-py's own class for its scheme."""

    def pack_command(self, *args: Any) -> list[bytes]:
        return pack_command(*args)
