"""The app's database: one engine per app (from settings), a session per request."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.engine import make_engine, make_session_factory
from app.settings import Settings


def install_database(app: FastAPI, settings: Settings) -> None:
    engine = make_engine(settings.database_url, pool_size=settings.db_pool_size,
                         max_overflow=settings.db_max_overflow,
                         pool_timeout=settings.db_pool_timeout_seconds)
    app.state.db_engine = engine
    app.state.sessions = make_session_factory(engine)
    previous = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: FastAPI) -> AsyncIterator[Any]:
        async with previous(application) as state:
            yield state
        await engine.dispose()

    app.router.lifespan_context = lifespan


async def db_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.sessions() as session:
        yield session


Session = Annotated[AsyncSession, Depends(db_session)]
