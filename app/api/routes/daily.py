"""The daily deal: today's game (one attempt per day), its board, my streak."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response

from app.api import live_news
from app.api.auth import MaybeMe, Me
from app.api.database import Session
from app.api.routes.common import IsoDateText, PageNumber, PageSize, problems
from app.api.routes.solo import Play, game_out
from app.api.schemas import TableOut
from app.api.solo_schemas import (
    DailyBoardEntryOut,
    DailyBoardPage,
    DailyOut,
    SoloGameOut,
    StreakOut,
)
from app.rewards.solo import daily_game
from app.runtime.solver_worker import off_loop
from app.services import daily, daily_duel
from app.services import solo_store as games

router = APIRouter(prefix="/api/daily", tags=["daily"])


@router.get("", response_model=DailyOut, responses=problems(401))
async def today_daily(me: Me, session: Session, play: Play) -> DailyOut:
    """Today's daily deal (UTC): my game, whether I may see the board, my streak."""
    day = play.today()
    start = await off_loop(daily_game, day)  # cached after the first call of a day
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
        players=counts.players, winners=counts.winners, playing=counts.playing,
        streak=StreakOut(current=streak.current, best=streak.best, last_won=streak.last_won),
        duel_table_id=await daily_duel.my_daily_duel(session=session, player=me, day=day),
        my_rank=None if mine is None else await daily.rank_of(session=session, game=mine),
    )


@router.post("/duel", status_code=201, response_model=TableOut,
             responses={200: {"model": TableOut, "description": "my daily-duel table of "
                              "today, or a seat at a waiting one (the match starts)"},
                        **problems(401, 409)})
async def take_daily_duel(me: Me, session: Session, play: Play, request: Request,
                          response: Response) -> TableOut:
    """Today's daily deal as a duel against a player of my band: a seat at a waiting table
    (200, the match starts), my table of today (200), or a new one that waits (201).
    Not the daily attempt (docs/solo-and-daily.md, "The daily duel")."""
    taken = await daily_duel.take_daily_duel(
        session=session, player=me, day=play.today(),
        ttl_seconds=request.app.state.settings.table_ttl_seconds)
    out = TableOut.of(taken.view)
    if not taken.created:
        response.status_code = 200
    await live_news.table_changed(request, "table_created" if taken.created else
                                  "seat_taken", out)  # private: to its players only
    return out


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
async def daily_board(day: Annotated[date, IsoDateText, Path()], me: MaybeMe, session: Session,
                      play: Play, page: PageNumber = 1, page_size: PageSize = 20
                      ) -> DailyBoardPage:
    """Won daily games of ``day``, fastest first; today's once I finished mine."""
    found = await daily.board(session=session, day=day, today=play.today(),
                              viewer_id=None if me is None else me.id, page=page,
                              page_size=page_size)
    return DailyBoardPage(
        items=[DailyBoardEntryOut.model_validate(e, from_attributes=True) for e in found.items],
        total=found.total, page=found.page, page_size=found.page_size)
