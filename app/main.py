"""The ASGI application: wires routes, static files and services together."""

from fastapi import FastAPI

from app.api import ws as ws_routes
from app.api.database import install_database
from app.api.problems import install_problem_handlers
from app.api.ratelimit import TokenBuckets
from app.api.routes import badges as badges_routes
from app.api.routes import daily as daily_routes
from app.api.routes import friends as friends_routes
from app.api.routes import invites as invites_routes
from app.api.routes import leaderboards as leaderboards_routes
from app.api.routes import players as players_routes
from app.api.routes import records as records_routes
from app.api.routes import results as results_routes
from app.api.routes import solo as solo_routes
from app.api.routes import tables as tables_routes
from app.api.solo_live import install_solo
from app.ops.wiring import install_operations
from app.rooms.presence import NobodyOnline
from app.settings import Settings, get_settings
from app.web import mount_web


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(title="Spider Duel", version="0.1.0")
    app.state.settings = settings
    install_database(app, settings)
    install_problem_handlers(app)
    app.state.presence = NobodyOnline()  # the live layer replaces it with real presence
    app.state.signup_buckets = TokenBuckets(burst=settings.player_create_burst,
                                            per_minute=settings.player_create_per_minute)
    app.include_router(players_routes.router)
    app.include_router(friends_routes.router)
    app.include_router(tables_routes.router)
    app.include_router(invites_routes.router)
    app.include_router(results_routes.router)
    install_solo(app, settings)  # solo play, reached by REST and WebSocket alike
    app.include_router(solo_routes.router)
    app.include_router(daily_routes.router)
    app.include_router(leaderboards_routes.router)
    app.include_router(badges_routes.router)
    app.state.verify_buckets = TokenBuckets(burst=settings.records_verify_burst,
                                            per_minute=settings.records_verify_per_minute)
    app.include_router(records_routes.router)
    app.include_router(ws_routes.router)  # live duels, lobby, invites, presence
    mount_web(app, settings)  # the browser client: web/ as static files, index at "/"
    # Last, so its lifespan wraps all others: it starts first and drains and flushes last.
    install_operations(app, settings, websockets={"/ws": ws_routes.duel_socket})
    return app


app = create_app()
