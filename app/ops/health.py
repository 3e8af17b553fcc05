"""Liveness and readiness.

`/healthz` answers as long as the event loop runs: a failing one means restart me.
`/readyz` checks what a request needs (the database, the pub/sub bus): a failing one means
send me no traffic for now, and it also fails while the process drains at shutdown. A
check added as not required (Redis) only degrades it: the process still serves what it
can (its own sockets), and a balancer that took every worker out for a Redis blip would
turn it into a full outage.
"""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

Check = Callable[[], Awaitable[None]]


@dataclass
class Readiness:
    """Named dependency checks; a check passes by returning and fails by raising."""

    timeout: float = 2.0
    checks: dict[str, Check] = field(default_factory=dict)
    draining: bool = False
    optional: set[str] = field(default_factory=set)  # failing: "degraded: <reason>"

    def add(self, name: str, check: Check, *, required: bool = True) -> None:
        self.checks[name] = check
        if not required:
            self.optional.add(name)

    async def run(self) -> dict[str, str]:
        names = list(self.checks)
        results = await asyncio.gather(*(self._one(self.checks[n]) for n in names))
        outcome = {name: result if result == "ok" or name not in self.optional
                   else f"degraded: {result}" for name, result in zip(names, results, strict=True)}
        if self.draining:
            outcome["shutdown"] = "draining"
        return outcome

    async def _one(self, check: Check) -> str:
        try:
            await asyncio.wait_for(check(), timeout=self.timeout)
        except TimeoutError:
            return f"timed out after {self.timeout:g}s"
        except Exception as exc:  # a probe reports failures, it never raises them
            return f"{type(exc).__name__}: {exc}"[:200]
        return "ok"

    @staticmethod
    def status(outcome: dict[str, str]) -> str:
        """``ok``, ``degraded`` (only optional checks failed) or ``unavailable``."""
        if all(result == "ok" for result in outcome.values()):
            return "ok"
        if all(result == "ok" or result.startswith("degraded: ")
               for result in outcome.values()):
            return "degraded"
        return "unavailable"


def database_check(engine: Callable[[], AsyncEngine]) -> Check:
    """`SELECT 1` through the application's own pool (so a full pool shows up too)."""

    async def check() -> None:
        async with engine().connect() as connection:
            await connection.execute(text("SELECT 1"))

    return check
