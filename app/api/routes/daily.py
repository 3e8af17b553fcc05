"""The daily deal: today's game (one attempt per day), its board, my streak."""

from __future__ import annotations

import asyncio
from datetime import date

from fastapi import APIRouter, Response

from app.api.auth import MaybeMe, Me
from app.api.database import Session
from app.api.routes.common import PageNumber, PageSize, problems
from app.api.routes.solo import Play, game_out
from app.api.solo_schemas import (
    DailyBoardEntryOut,
    DailyBoardPage,
    DailyOut,
    SoloGameOut,
    StreakOut,
)
from app.rewards.solo import daily_game
from app.services import daily
from app.services import solo_games as games

router = APIRouter(prefix="/api/daily", tags=["daily"])


@router.get("", response_model=DailyOut, responses=problems(401))
async def today_daily(me: Me, session: Session, play: Play) -> DailyOut:
    """Today's daily deal (UTC): my game, whether I may see the board, my streak."""
    day = play.today()
    start = await asyncio.to_thread(daily_game, day)  # cached after the first call of a day
    mine = await games.daily_of(session=session, player_id=me.id, day=day)
    if mine is not None:
        mine = await play.refreshed(session=session, game=mine)
    counts = await daily.day_counts(session=session, day=day)
    streak = await daily.streak_of(session=session, player_id=me.id, today=day)
    return DailyOut(
        day=day, suits=start.options.suits, rules=start.state.rules.to_json(),
        difficulty=start.difficulty,
        my_game=None if mine is None else await game_out(session, mine),
        board_visible=mine is not None and mine.status != "playing",
        players=counts.players, winners=counts.winners,
        streak=StreakOut(current=streak.current, best=streak.best, last_won=streak.last_won),
    )


@router.post("/start", status_code=201, response_model=SoloGameOut,
             responses={200: {"model": SoloGameOut, "description": "my daily of today, "
                              "still in progress"}, **problems(401, 409)})
async def start_daily(me: Me, session: Session, play: Play, response: Response
                      ) -> SoloGameOut:
    """Start today's daily deal (201), or get it back while it is in progress (200)."""
    game, created = await play.start_daily(player_id=me.id)
    if not created:
        response.status_code = 200
    return await game_out(session, game)


@router.get("/{day}/board", response_model=DailyBoardPage,
            responses=problems(401, 403, 404))
async def daily_board(day: date, me: MaybeMe, session: Session, play: Play,
                      page: PageNumber = 1, page_size: PageSize = 20) -> DailyBoardPage:
    """Won daily games of ``day``, fastest first; today's once I finished mine."""
    found = await daily.board(session=session, day=day, today=play.today(),
                              viewer_id=None if me is None else me.id, page=page,
                              page_size=page_size)
    return DailyBoardPage(
        items=[DailyBoardEntryOut.model_validate(e, from_attributes=True) for e in found.items],
        total=found.total, page=found.page, page_size=found.page_size)
