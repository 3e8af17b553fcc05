"""Test-only route: ``PUT /api/test/matches/{id}/layout`` (404 unless allow_test_layouts)."""

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import Id, problems
from app.errors import NotFound
from app.services.test_layouts import set_test_layout

router = APIRouter(prefix="/api/test", tags=["testing"], include_in_schema=False)


class LayoutIn(BaseModel):
    layout: dict[str, Any]
    time_limit_seconds: int | None = Field(
        None, ge=1, description="Tests only: a clock shorter than tables allow (time-outs)."
    )


@router.put("/matches/{match_id}/layout", responses=problems(401, 403, 404, 409))
async def put_test_layout(match_id: Id, body: LayoutIn, player: Me, session: Session,
                          request: Request) -> dict[str, Any]:
    """Replace the match's deal by a rule-book layout (tests only)."""
    if not request.app.state.settings.allow_test_layouts:
        raise NotFound("not found", code="not_found")
    match = await set_test_layout(session=session, match_id=match_id, player_id=player.id,
                                  layout=body.layout, time_limit_seconds=body.time_limit_seconds)
    request.app.state.rooms.duels.forget(match_id)  # a cached copy would hold the old deal
    return {"match_id": match.id, "layout": match.layout,
            "time_limit_seconds": match.time_limit_seconds}
