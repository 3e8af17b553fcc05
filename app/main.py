"""The ASGI application: wires routes, static files and services together."""

import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI

from app.ops.wiring import install_operations, operations_lifespan
from app.settings import Settings, get_settings


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    async with operations_lifespan(app):
        yield


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(title="Spider Duel", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    install_operations(app, settings)

    return app


app = create_app()
