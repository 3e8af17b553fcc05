"""Serves the browser client: the files of ``web/`` as they are, index at ``/``.

Only ``/css``, ``/js`` and ``/img`` are mounted (not ``/``; ``app/main.py`` mounts them), so
the client never shadows an API route, whatever order the routers are included in.
"""

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

ASSET_FOLDERS = ("css", "js", "img")

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index(request: Request) -> FileResponse:
    web_dir = request.app.state.settings.web_dir
    return FileResponse(web_dir / "index.html", headers={"Cache-Control": "no-cache"})
