"""Serves the browser client: the files of ``web/`` as they are, index at ``/``.

Only ``/css`` and ``/js`` are mounted (not ``/``), so the client never shadows an API
route, whatever order the routers are included in.
"""

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from app.settings import Settings

ASSET_FOLDERS = ("css", "js", "img")


def mount_web(app: FastAPI, settings: Settings) -> None:
    web_dir = settings.web_dir
    for folder in ASSET_FOLDERS:
        app.mount(f"/{folder}", StaticFiles(directory=web_dir / folder), name=f"web-{folder}")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(web_dir / "index.html", headers={"Cache-Control": "no-cache"})
