"""Players: sign up with a name (rate-limited), read player info and history."""

from dataclasses import asdict
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import Id, IsoDateTimeText, PageNumber, PageSize, problems
from app.api.schemas import (
    NAME_PATTERN,
    DailyStatsOut,
    HistoryEntryOut,
    HistoryPage,
    NewPlayerIn,
    NewPlayerOut,
    PlayerNameOut,
    PlayerNamePage,
    PlayerOut,
    SoloSuitStatsOut,
)
from app.errors import RateLimited
from app.services import leaderboards, players, results

router = APIRouter(prefix="/api/players", tags=["players"])


def _limit_signups(request: Request) -> None:
    key = request.client.host if request.client else "unknown"
    wait = request.app.state.signup_buckets.take(key)
    if wait > 0:
        raise RateLimited("too many new players from your address; try again later",
                          retry_after=wait)


@router.post("", status_code=201, response_model=NewPlayerOut, responses=problems(409, 429))
async def create_player(body: NewPlayerIn, request: Request, session: Session) -> NewPlayerOut:
    """Pick a unique display name; the answer holds your long-lived token."""
    _limit_signups(request)
    created = await players.create_player(
        session=session, name=body.name, secret_key=request.app.state.settings.secret_key
    )
    return NewPlayerOut(player=await _player_out(request, session, created.player.id),
                        token=created.token)


@router.get("", response_model=PlayerNamePage, responses=problems())
async def search(
    session: Session,
    search: Annotated[str, Query(min_length=1, max_length=20, pattern=r"^[A-Za-z0-9_-]+$",
                                 description="the start of a name, any case")],
    page: PageNumber = 1,
    page_size: PageSize = 20,
) -> PlayerNamePage:
    """Players whose name starts with ``search`` (to find one to add as a friend)."""
    found = await players.search_players(session=session, prefix=search, page=page,
                                         page_size=page_size)
    return PlayerNamePage.of(found, lambda p: PlayerNameOut(id=p.id, name=p.name))


@router.get("/me", response_model=PlayerOut, responses=problems(401))
async def me(player: Me, request: Request, session: Session) -> PlayerOut:
    return await _player_out(request, session, player.id)


@router.get("/by-name/{name}", response_model=PlayerOut, responses=problems(404))
async def by_name(
    name: Annotated[str, Path(min_length=1, max_length=64, pattern=NAME_PATTERN)],
    request: Request,
    session: Session,
) -> PlayerOut:
    found = await players.find_by_name(session=session, name=name)
    return await _player_out(request, session, found.id)


@router.get("/{player_id}", response_model=PlayerOut, responses=problems(404))
async def player(player_id: Id, request: Request, session: Session) -> PlayerOut:
    return await _player_out(request, session, player_id)


async def _player_out(request: Request, session: Session, player_id: int) -> PlayerOut:
    """Duel stats and ratings, with the solo and daily stats beside them."""
    info = await players.player_info(session=session, player_id=player_id)
    stats = await leaderboards.solo_stats(session=session, player_id=player_id,
                                          now=request.app.state.solo.clock())
    return PlayerOut.of(info, solo=[SoloSuitStatsOut(**asdict(entry)) for entry in stats.solo],
                        daily=DailyStatsOut(**asdict(stats.daily)), badges=stats.badges)


@router.get("/{player_id}/history", response_model=HistoryPage,
            responses=problems(404, invalid=("bad_dates",)))
async def history(
    player_id: Id,
    session: Session,
    page: PageNumber = 1,
    page_size: PageSize = 20,
    since: Annotated[datetime | None, IsoDateTimeText,
                     Query(description="ended at or after (ISO 8601)")] = None,
    until: Annotated[datetime | None, IsoDateTimeText,
                     Query(description="ended before (ISO 8601)")] = None,
) -> HistoryPage:
    """Finished matches of a player, newest first."""
    found = await results.history(session=session, player_id=player_id, page=page,
                                  page_size=page_size, since=since, until=until)
    return HistoryPage.of(found, HistoryEntryOut.of)
