"""One Redis pipeline at a time for every writer of a process, shared.

The bus's publishes (`app.messaging.redis_publisher`) and the players' event streams
(`app.messaging.redis_streams`) each queue their writes. An action queues both in the
same loop turn: its fan-out (watch, progress, the peers' sync, the ack's echo) and the
stream entries of the frames it makes. Drained by one task, whatever the writers queued
meanwhile goes out as one pipeline: one round trip for all of it, where each writer
batching on its own cost one each (at human pace, when nothing else is queued, that
was most of a worker's Redis round trips per action).

A batch goes out as one call of the process's batch script (``app.messaging.
redis_scripts``), made of the ops of every writer that joined.

Each writer is asked for its commands as the pipeline is made (``take``), not when it
queued them: the publisher puts its gap markers ahead of anything newer at that moment.
Each writer is then told what became of its own commands (``settle``): their answers, in
order, or the error that stopped the whole pipeline (Redis away). One pipeline at a time,
in order: what a writer queued later goes out later.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import redis.asyncio as redis

from app.messaging.redis_scripts import BatchScript, LuaOp, OpCall

log = logging.getLogger("spider.pubsub")

Outcome = list[Any] | Exception
"""A writer's commands' answers (each an answer or the error it met), or the error that
stopped the pipeline as a whole."""
Taken = tuple[Sequence[OpCall], Callable[[Outcome], None]]


class Writer(Protocol):
    def take(self) -> Taken | None:
        """The commands queued since the last pipeline and what to do with their outcome;
        None when there are none."""
        ...


class SharedPipeline:
    __slots__ = ("_script", "_writers", "running")

    def __init__(self, client: redis.Redis) -> None:
        self._script = BatchScript(client)
        self._writers: list[Writer] = []
        self.running: asyncio.Task[None] | None = None  # the sender, while there is work

    def join(self, writer: Writer, ops: Iterable[LuaOp] = ()) -> None:
        """``ops``: the kinds of write ``writer`` sends (a plain publish is known)."""
        self._script.add(ops)
        self._writers.append(writer)

    def wake(self) -> None:
        """A writer queued something: send it (with everything queued meanwhile)."""
        if self.running is None:
            self.running = asyncio.get_running_loop().create_task(self._drain())

    async def idle(self) -> None:
        """Wait until everything queued so far is sent (tests, shutdown)."""
        while (sending := self.running) is not None:
            await asyncio.shield(sending)

    async def _drain(self) -> None:
        try:
            while taken := [t for w in self._writers if (t := w.take()) is not None]:
                await self._send(taken)
        finally:
            self.running = None

    async def _send(self, taken: list[Taken]) -> None:
        commands = [command for part, _ in taken for command in part]
        outcomes: list[Outcome]
        try:
            answers = await self._script.run(commands)
        except Exception as error:  # Redis away (RedisError), or a bug: each writer says
            outcomes = [error] * len(taken)
        else:
            outcomes, start = [], 0
            for part, _ in taken:
                outcomes.append(answers[start:start + len(part)])
                start += len(part)
        for (_, settle), outcome in zip(taken, outcomes, strict=True):
            try:
                settle(outcome)
            except Exception:  # one writer's failure is not the others'
                log.exception("a Redis writer failed to take its answers")
