"""Operations around the app's life: readiness checks, and the lifespan that starts first
and stops last (logging set up at start; at shutdown: refuse new work, close and drain the
connections, flush the logs). ``app/main.py`` plugs it in."""

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from starlette.datastructures import State

from app.ops.health import Readiness, database_check
from app.ops.logging import configure_logging, flush_logs
from app.runtime.connections import ConnectionRegistry
from app.settings import Settings

log = logging.getLogger("spider.ops")


def readiness(state: State) -> Readiness:
    """The probes of ``/readyz``: the database answers, a networked pubsub answers (or the
    process says it is degraded: it still serves its own sockets without Redis)."""
    checks = Readiness()
    checks.add("database", database_check(lambda: state.db_engine))
    checks.add("pubsub", _pubsub_check(state), required=False)
    return checks


def _pubsub_check(state: State) -> Callable[[], Awaitable[None]]:
    async def check() -> None:
        # The in-process bus cannot be unreachable; only a networked one is probed.
        rooms = getattr(state, "rooms", None)
        bus = getattr(rooms, "pubsub", None) or getattr(state, "pubsub", None)
        if bus is not None and hasattr(bus, "ping"):
            await bus.ping()

    return check


@contextlib.asynccontextmanager
async def operations_lifespan(state: State) -> AsyncIterator[None]:
    """Enter around the rest of the app's lifespan: it starts first and stops last."""
    settings: Settings = state.settings
    # At start, not at import: importing the app (tests, tools) leaves logging alone.
    configure_logging(level=settings.log_level, fmt=settings.log_format)
    log.info("started", extra={"pubsub": settings.pubsub_backend})
    try:
        yield
    finally:
        await _shut_down(state, settings)


async def _shut_down(state: State, settings: Settings) -> None:
    state.readiness.draining = True
    connections: ConnectionRegistry = state.connections
    open_before = len(connections)
    # uvicorn has closed its sockets with 1012 by now; this covers other servers and tests.
    await connections.close_all()
    drained = await connections.drain(timeout=settings.shutdown_drain_seconds)
    log.info(
        "stopped",
        extra={"connections_closed": open_before, "drained": drained},
    )
    flush_logs()
