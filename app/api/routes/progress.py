"""A player's past: every finished game in one list, the statistics, and replays of any
finished game (duel, solo or daily)."""

from typing import Any

from fastapi import APIRouter

from app.api.database import Session
from app.api.progress_schemas import PlayedGamesPage, PlayerStatsOut, ReplayOut
from app.api.routes.common import Id, PageNumber, PageSize, problems
from app.services import progress, replays

router = APIRouter(prefix="/api", tags=["progress"])


@router.get("/players/{player_id}/games", response_model=PlayedGamesPage,
            responses=problems(404))
async def played_games(player_id: Id, session: Session, page: PageNumber = 1,
                       page_size: PageSize = 20) -> dict[str, Any]:
    """Finished duels, solo and daily games, newest first."""
    found = await progress.game_list(session=session, player_id=player_id, page=page,
                                     page_size=page_size)
    return {"items": found.items, "total": found.total, "page": found.page,
            "page_size": found.page_size}


@router.get("/players/{player_id}/stats", response_model=PlayerStatsOut,
            responses=problems(404))
async def player_stats(player_id: Id, session: Session) -> dict[str, Any]:
    """Win rate, streaks and bests per mode and suit count; the rating over time."""
    return await progress.player_stats(session=session, player_id=player_id)


@router.get("/replays/solo/{game_id}", response_model=ReplayOut, responses=problems(404, 409))
async def solo_replay(game_id: Id, session: Session) -> dict[str, Any]:
    """A finished solo or daily game, step by step (409 while it is played)."""
    return await replays.solo_replay(session=session, game_id=game_id)


@router.get("/replays/duel/{game_id}", response_model=ReplayOut, responses=problems(404, 409))
async def duel_replay(game_id: Id, session: Session) -> dict[str, Any]:
    """One player's game of a duel, step by step, once both games are over."""
    return await replays.duel_replay(session=session, game_id=game_id)
