"""Test-only: ``PUT /api/test/matches/{id}/layout`` gives a match a chosen starting layout.

Browser and server tests need near-finished games. Mounted only by the testing app
(tests/support/testing_app.py), never by the product's; allowed to a seated player,
before either game is opened.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import Id, problems
from app.db import games as repo
from app.db.models import Match
from app.engine.layout import LayoutError, state_from_layout
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.services.deals import match_rules

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
    match = await set_test_layout(session=session, match_id=match_id, player_id=player.id,
                                  layout=body.layout, time_limit_seconds=body.time_limit_seconds)
    request.app.state.rooms.duels.forget(match_id)  # a cached copy would hold the old deal
    return {"match_id": match.id, "layout": match.layout,
            "time_limit_seconds": match.time_limit_seconds}


async def set_test_layout(
    *, session: AsyncSession, match_id: int, player_id: int, layout: dict[str, Any],
    time_limit_seconds: int | None = None,
) -> Match:
    """Store ``layout`` as the match's deal (validated against the match's rules). Commits."""
    match = await session.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {match_id}", code="match_not_found")
    games = await repo.games_of_match(session, match_id=match_id)
    if player_id not in {game.player_id for game in games}:
        raise Forbidden("only a player of the match may set its test layout",
                        code="not_seated")
    if any(game.started_at is not None for game in games):
        raise Conflict("a game of this match is already open", code="match_started")
    try:
        state_from_layout(match_rules(match), layout)
    except LayoutError as error:
        raise InvalidInput(str(error), code="bad_layout") from None
    match.layout = layout
    match.difficulty = "test"
    if time_limit_seconds is not None:
        match.time_limit_seconds = time_limit_seconds
    await session.commit()
    return match
