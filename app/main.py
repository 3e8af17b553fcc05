"""The ASGI application: wires routes, static files and services together."""

from fastapi import FastAPI

from app.settings import Settings, get_settings


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(title="Spider Duel", version="0.1.0")
    app.state.settings = settings

    @app.get("/healthz", tags=["operations"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    # The browser client (issue 6): web/ served as static files, index at "/".
    from app.web import mount_web

    mount_web(app, settings)

    return app


app = create_app()
