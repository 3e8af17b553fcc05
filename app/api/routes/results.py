"""Results: a match's result, a finished game's record, the leaderboard, level bands."""

import math
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from app.api.database import Session
from app.api.routes.common import Id, PageNumber, PageSize, problems
from app.api.schemas import (
    BandOut,
    LeaderboardEntryOut,
    LeaderboardPage,
    MatchResultOut,
    SuitCount,
)
from app.services import ratings, results
from app.services.bands import BANDS

router = APIRouter(prefix="/api", tags=["results"])


@router.get("/matches/{match_id}", response_model=MatchResultOut, responses=problems(404))
async def match_result(match_id: Id, session: Session, request: Request) -> MatchResultOut:
    """Both players' games; the deal number and suit count only once both games are over;
    while a game is not opened yet, until when it may be (the no-show rule)."""
    found = await results.match_result(session=session, match_id=match_id)
    deadline = await results.start_deadline(
        session=session, result=found,
        window_s=request.app.state.settings.start_window_seconds)
    return MatchResultOut.of(found, deadline)


@router.get("/games/{game_id}/record", responses=problems(404, 409))
async def game_record(game_id: Id, session: Session) -> dict[str, Any]:
    """The rule book's JSON record of a game (once both games of its match are over)."""
    return await results.record_of_game(session=session, game_id=game_id)


@router.get("/leaderboard", response_model=LeaderboardPage, responses=problems())
async def leaderboard(
    session: Session,
    suits: Annotated[SuitCount, Query()] = SuitCount.ONE,
    page: PageNumber = 1,
    page_size: PageSize = 20,
) -> LeaderboardPage:
    found = await ratings.leaderboard(session=session, suits=suits, page=page,
                                      page_size=page_size)
    return LeaderboardPage(suits=int(suits), items=[LeaderboardEntryOut.of(e) for e in found.items],
                           total=found.total, page=found.page, page_size=found.page_size)


@router.get("/bands", response_model=list[BandOut])
async def bands() -> list[BandOut]:
    """The level bands: rating ranges (min inclusive, max exclusive)."""
    return [BandOut(name=band.name,
                    min_rating=None if math.isinf(band.low) else band.low,
                    max_rating=None if math.isinf(band.high) else band.high)
            for band in BANDS]
