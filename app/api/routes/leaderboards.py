"""Solo leaderboards: points per suit count (all time, this week), daily streaks.

Duel ratings have their own board (``GET /api/leaderboard``, app/api/routes/results.py).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Literal

from fastapi import APIRouter, Query

from app.api.database import Session
from app.api.routes.common import PageNumber, PageSize, problems
from app.api.routes.solo import Play
from app.api.schemas import SuitCount
from app.api.solo_schemas import (
    SoloPointsEntryOut,
    SoloPointsPage,
    StreakEntryOut,
    StreakPage,
)
from app.services import daily, leaderboards

router = APIRouter(prefix="/api/leaderboards", tags=["leaderboards"])


@router.get("/solo", response_model=SoloPointsPage, responses=problems())
async def solo_points(
    session: Session, play: Play, suits: Annotated[SuitCount, Query()],
    period: Annotated[Literal["all", "week"], Query()] = "all",
    page: PageNumber = 1, page_size: PageSize = 20,
) -> SoloPointsPage:
    """Points of won solo and daily games with ``suits``; ``week`` since Monday 00:00 UTC."""
    entries, total = await leaderboards.solo_points(
        session=session, suits=int(suits), period=period, now=play.clock(), page=page,
        page_size=page_size)
    return SoloPointsPage(items=[SoloPointsEntryOut(**asdict(e)) for e in entries],
                          total=total, page=page, page_size=page_size)


@router.get("/daily-streaks", response_model=StreakPage, responses=problems())
async def daily_streaks(
    session: Session, play: Play,
    order: Annotated[Literal["current", "best"], Query()] = "current",
    page: PageNumber = 1, page_size: PageSize = 20,
) -> StreakPage:
    """Daily streaks: current ones (at least 1) or best ones."""
    entries, total = await daily.streak_board(session=session, order=order,
                                              today=play.today(), page=page,
                                              page_size=page_size)
    items = [StreakEntryOut.model_validate(e, from_attributes=True) for e in entries]
    return StreakPage(items=items, total=total, page=page, page_size=page_size)
