"""Badges: the table of all 15, and the ones a player holds."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.database import Session
from app.api.routes.common import Id, problems
from app.api.solo_schemas import BadgeGameOut, BadgeOut, HeldBadgeOut
from app.services import badges
from app.services.solo_store import player_name

router = APIRouter(prefix="/api", tags=["badges"])


@router.get("/badges", response_model=list[BadgeOut])
async def badge_table() -> list[BadgeOut]:
    """Every badge, in the table's order (titles and descriptions in English)."""
    return [BadgeOut(**entry) for entry in badges.badge_table()]


@router.get("/players/{player_id}/badges", response_model=list[HeldBadgeOut],
            responses=problems(404))
async def player_badges(player_id: Id, session: Session) -> list[HeldBadgeOut]:
    """The badges a player earned, earliest first, with the game that earned each."""
    await player_name(session=session, player_id=player_id)  # 404 for nobody
    return [HeldBadgeOut(code=b.code, title=b.title, description=b.description,
                         earned_at=b.earned_at,
                         game=BadgeGameOut(kind=b.kind, id=b.game_id))
            for b in await badges.held_badges(session=session, player_id=player_id)]
