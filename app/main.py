"""The one place the app is assembled: middleware, state, routes and lifespan, and what
the server runs (``app``: the app behind the WebSocket shortcut).

Everything the app holds is built here from the settings, in this order: the database,
the placeholders the live layer replaces when it starts, rate limits, solo play and
operations (``app.state``); then the routes; then the lifespan, which starts operations
first and the live layer (wired in ``app/wiring.py``) inside them, and stops them the
other way round. No other module adds routes, middleware or state to the app
(tests/test_assembly.py).
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import State
from starlette.middleware import Middleware
from starlette.types import ASGIApp

from app import web
from app.api import live_news, problems, table_talk
from app.api import ws as ws_routes
from app.api.ratelimit import TokenBuckets
from app.api.routes import badges as badges_routes
from app.api.routes import daily as daily_routes
from app.api.routes import friends as friends_routes
from app.api.routes import invites as invites_routes
from app.api.routes import leaderboards as leaderboards_routes
from app.api.routes import players as players_routes
from app.api.routes import progress as progress_routes
from app.api.routes import quick as quick_routes
from app.api.routes import records as records_routes
from app.api.routes import results as results_routes
from app.api.routes import solo as solo_routes
from app.api.routes import tables as tables_routes
from app.db.engine import make_engine, make_session_factory
from app.messaging import channels
from app.messaging.presence import NobodyOnline
from app.ops import echo, lifecycle
from app.ops import routes as ops_routes
from app.ops.middleware import RequestIdMiddleware, WebSocketShortcut
from app.runtime.connections import ConnectionRegistry
from app.services.solo_lifecycle import Publish
from app.services.solo_play import SoloPlay
from app.settings import Settings, get_settings
from app.wire.base import Numbered
from app.wiring import build_live_rooms

ROUTERS = (
    players_routes.router, friends_routes.router, tables_routes.router,
    invites_routes.router, results_routes.router,
    solo_routes.router,  # solo play, reached by REST and WebSocket alike
    daily_routes.router, leaderboards_routes.router, badges_routes.router,
    records_routes.router, progress_routes.router, quick_routes.router,
    ws_routes.router,  # live duels, lobby, invites, presence
    ops_routes.router,  # probes and metrics
    web.router,  # the browser client's index at "/"
)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(title="Spider Duel", version="0.1.0", lifespan=lifespan,
                  middleware=[Middleware(RequestIdMiddleware)],
                  exception_handlers=problems.EXCEPTION_HANDLERS)
    install_state(app.state, settings)
    for router in ROUTERS:
        app.include_router(router)
    if settings.bench_echo:
        app.include_router(echo.router)
    for folder in web.ASSET_FOLDERS:  # web/ as static files
        app.mount(f"/{folder}", StaticFiles(directory=settings.web_dir / folder),
                  name=f"web-{folder}")
    return app


def install_state(state: State, settings: Settings) -> None:
    state.settings = settings
    state.db_engine = make_engine(settings.database_url, pool_size=settings.db_pool_size,
                                  max_overflow=settings.db_max_overflow,
                                  pool_timeout=settings.db_pool_timeout_seconds)
    state.sessions = make_session_factory(state.db_engine)
    state.presence = NobodyOnline()  # the live layer replaces it with real presence
    state.signup_buckets = TokenBuckets(burst=settings.player_create_burst,
                                        per_minute=settings.player_create_per_minute)
    state.verify_buckets = TokenBuckets(burst=settings.records_verify_burst,
                                        per_minute=settings.records_verify_per_minute)
    state.solo = SoloPlay(sessions=state.sessions, publish=_publisher(state),
                          rescue_seconds=settings.solo_rescue_seconds,
                          auto_complete_seconds=settings.solo_auto_complete_seconds)
    state.say_buckets = table_talk.buckets(settings)
    state.readiness = lifecycle.readiness(state)
    state.connections = ConnectionRegistry(
        max_per_player=settings.ws_max_connections_per_player)


def _publisher(state: State) -> Publish:
    async def publish(player_id: int, frame: Numbered) -> None:
        rooms = getattr(state, "rooms", None)  # none before the lifespan (REST-only tests)
        if rooms is not None:
            await rooms.pubsub.publish(channels.player(player_id), frame)

    return publish


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    state = app.state
    # Operations start first and stop last: they drain connections and flush the logs.
    async with lifecycle.operations_lifespan(state):
        async with live_layer(state):
            yield
        await state.db_engine.dispose()


@asynccontextmanager
async def live_layer(state: State) -> AsyncIterator[None]:
    """The rooms layer for this process, on ``state.rooms``; its presence answers REST."""
    rooms = await build_live_rooms(settings=state.settings, engine=state.db_engine,
                                   sessions=state.sessions)
    state.rooms = rooms
    state.presence = rooms.streams  # the REST friend list asks who is online
    rooms.start_restoring()  # in the background: a database not ready yet delays, not kills
    forget_reopened = live_news.announce_reopened_tables(rooms=rooms, sessions=state.sessions)
    try:
        yield
    finally:
        forget_reopened()
        await rooms.close()


def served(app: FastAPI) -> ASGIApp:
    """What the server runs: the app, its long-lived sockets taken past the whole stack
    (app/ops/middleware.py says why); everything else goes to the app as it is."""
    return WebSocketShortcut(app, {"/ws": ws_routes.duel_socket})


app = served(create_app())
