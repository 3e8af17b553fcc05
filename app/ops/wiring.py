"""Plugs operations into the app: middleware, routes, probes and the shutdown sequence."""

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from starlette.types import ASGIApp

from app.ops import echo
from app.ops.connections import ConnectionRegistry
from app.ops.health import Readiness, database_check
from app.ops.logging import configure_logging, flush_logs
from app.ops.middleware import RequestIdMiddleware, WebSocketEndpoint, WebSocketShortcut
from app.ops.routes import router
from app.settings import Settings

log = logging.getLogger("spider.ops")
ShutdownHook = Callable[[], Awaitable[None]]


def install_operations(
    app: FastAPI, settings: Settings, *, websockets: Mapping[str, WebSocketEndpoint] = {}
) -> None:
    """`websockets`: long-lived WebSocket endpoints by path, served past the middleware
    stack (see `WebSocketShortcut`); they stay routed normally too."""
    app.add_middleware(RequestIdMiddleware)
    if websockets:
        _shortcut_websockets(app, websockets)
    app.include_router(router)
    if settings.bench_echo:
        app.include_router(echo.router)
    app.state.readiness = Readiness()
    app.state.connections = ConnectionRegistry(
        max_per_player=settings.ws_max_connections_per_player
    )
    app.state.shutdown_hooks = []
    app.state.readiness.add("database", database_check(lambda: _database_engine(app)))
    app.state.readiness.add("pubsub", _pubsub_check(app))
    _wrap_lifespan(app)


def _shortcut_websockets(app: FastAPI, endpoints: Mapping[str, WebSocketEndpoint]) -> None:
    # Starlette builds the stack on the first call (after every middleware is added);
    # the shortcut goes around what it builds.
    build = app.build_middleware_stack

    def build_with_shortcut() -> ASGIApp:
        return WebSocketShortcut(build(), endpoints)

    app.build_middleware_stack = build_with_shortcut  # type: ignore[method-assign]


def _wrap_lifespan(app: FastAPI) -> None:
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(application: FastAPI) -> AsyncIterator[Any]:
        async with operations_lifespan(application), inner(application) as state:
            yield state

    app.router.lifespan_context = lifespan


def on_shutdown(app: FastAPI, hook: ShutdownHook) -> None:
    """Run `hook` at shutdown, after connections drained; hooks run last-added first."""
    app.state.shutdown_hooks.append(hook)


def _database_engine(app: FastAPI) -> AsyncEngine:
    # The persistence layer publishes its engine as app.state.db_engine; until it has,
    # the probe keeps a one-connection engine of its own.
    engine: AsyncEngine | None = getattr(app.state, "db_engine", None)
    if engine is None:
        engine = getattr(app.state, "_probe_engine", None)
    if engine is None:
        engine = create_async_engine(app.state.settings.database_url)
        app.state._probe_engine = engine
        on_shutdown(app, engine.dispose)
    return engine


def _pubsub_check(app: FastAPI) -> Callable[[], Awaitable[None]]:
    async def check() -> None:
        # The in-process bus cannot be unreachable; only a networked one is probed.
        rooms = getattr(app.state, "rooms", None)
        bus = getattr(rooms, "pubsub", None) or getattr(app.state, "pubsub", None)
        if bus is not None and hasattr(bus, "ping"):
            await bus.ping()

    return check


@contextlib.asynccontextmanager
async def operations_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Enter around the rest of the app's lifespan: it starts first and stops last."""
    settings: Settings = app.state.settings
    # At start, not at import: importing the app (tests, tools) leaves logging alone.
    configure_logging(level=settings.log_level, fmt=settings.log_format)
    log.info("started", extra={"pubsub": settings.pubsub_backend})
    try:
        yield
    finally:
        await _shut_down(app, settings)


async def _shut_down(app: FastAPI, settings: Settings) -> None:
    app.state.readiness.draining = True
    connections: ConnectionRegistry = app.state.connections
    open_before = len(connections)
    # uvicorn has closed its sockets with 1012 by now; this covers other servers and tests.
    await connections.close_all()
    drained = await connections.drain(timeout=settings.shutdown_drain_seconds)
    for hook in reversed(app.state.shutdown_hooks):
        try:
            await hook()
        except Exception:
            log.exception("shutdown hook failed", extra={"hook": repr(hook)})
    log.info(
        "stopped",
        extra={"connections_closed": open_before, "drained": drained},
    )
    flush_logs()
