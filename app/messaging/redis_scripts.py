"""Lua scripts sent in pipelines by their SHA alone: one round trip per batch.

redis-py's ``Script``, called on a pipeline, has the pipeline ask Redis whether its scripts
are loaded (``SCRIPT EXISTS``) before every ``execute``: a round trip of its own ahead of
each batch of publishes and stream writes (about one per action under load, measured with
``bench.load --cluster``). Here a batch sends ``EVALSHA`` only. A script Redis does not
have (it restarted, or its cache was flushed) answers ``NOSCRIPT`` and did not run: it is
loaded, and those calls alone are sent again, in their order (nothing runs twice).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis.asyncio as redis
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError


@dataclass(frozen=True, slots=True)
class ScriptCall:
    script: AsyncScript
    keys: Sequence[Any]
    args: Sequence[Any]


@dataclass(frozen=True, slots=True)
class Publish:
    channel: str
    payload: bytes


Command = ScriptCall | Publish


async def execute(client: redis.Redis, commands: Sequence[Command]) -> list[Any]:
    """Each command's answer, or the error it met (one failing command stops no other);
    raises ``RedisError`` when the batch could not be sent at all."""
    answers = await _send(client, commands)
    again = [i for i, answer in enumerate(answers) if isinstance(answer, NoScriptError)]
    if again:
        missing = {id(script): script for script in (_script(commands[i]) for i in again)}
        for script in missing.values():
            script.sha = await client.script_load(script.script)
        for i, answer in zip(again, await _send(client, [commands[i] for i in again]),
                             strict=True):
            answers[i] = answer
    return answers


def _script(command: Command) -> AsyncScript:
    assert isinstance(command, ScriptCall)  # only a script answers NOSCRIPT
    return command.script


async def _send(client: redis.Redis, commands: Sequence[Command]) -> list[Any]:
    pipe = client.pipeline(transaction=False)
    for command in commands:
        if isinstance(command, Publish):
            pipe.publish(command.channel, command.payload)
        else:
            pipe.evalsha(command.script.sha, len(command.keys), *command.keys,
                         *command.args)
    return list(await pipe.execute(raise_on_error=False))
