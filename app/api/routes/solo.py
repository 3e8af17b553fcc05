"""Solo games: start one on a deal number, read it, give it up, get its record.

Play itself (open, actions, hints, rescue, auto-complete) is on the WebSocket.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from app.api.auth import MaybeMe, Me
from app.api.database import Session
from app.api.routes.common import Id, PageNumber, PageSize, problems
from app.api.schemas import SuitCount
from app.api.solo_live import solo_play
from app.api.solo_schemas import (
    NewSoloGameIn,
    NewSoloGameOut,
    SoloGameOut,
    SoloGamesPage,
    SoloKind,
    SoloStatus,
)
from app.db.solo_models import SoloGame
from app.engine.daily import daily_deal_number
from app.engine.deal_numbers import random_deal_number
from app.rewards.solo import SoloOptions, solo_start
from app.runtime.solver_worker import off_loop
from app.services import daily, solo_assists, solo_pool
from app.services import solo_store as games
from app.services.solo_play import SoloPlay
from app.services.solo_views import game_json

router = APIRouter(prefix="/api", tags=["solo"])
Play = Annotated[SoloPlay, Depends(solo_play)]


async def game_out(session: Session, game: SoloGame) -> SoloGameOut:
    name = await games.player_name(session=session, player_id=game.player_id)
    assists = await solo_assists.assists_of(session=session, game_id=game.id)
    return SoloGameOut.model_validate(game_json(game, name, assists))


@router.post("/solo/games", status_code=201, response_model=NewSoloGameOut,
             responses=problems(401, 409))
async def start_solo_game(body: NewSoloGameIn, me: Me, session: Session, play: Play
                          ) -> NewSoloGameOut:
    """A new solo game (my solo game in progress, if any, is abandoned)."""
    options = SoloOptions(body.options.suits, body.options.solvable_only, body.options.relaxed)
    today = play.today()
    number = body.number
    # A random solvable deal comes solved from the pool when one is ready (a 4-suit one
    # may take the solver seconds): app/services/solo_pool.py.
    pooled = None if number is not None or not options.solvable_only else (
        await solo_pool.claim(session=session, suits=options.suits,
                              avoid=daily_deal_number(today)))
    while number is None and pooled is None:  # a random number is never today's daily deal
        number = random_deal_number()
        if number == daily_deal_number(today):
            number = None
    if pooled is not None:
        start = solo_pool.start_from(pooled, options)
    else:
        assert number is not None
        daily.check_not_todays_daily(number=number, options=options, today=today)
        start = await off_loop(solo_start, number, options)  # the solver may run
    created = await play.create(player_id=me.id, start=start)
    return NewSoloGameOut(game=await game_out(session, created.game),
                          abandoned_game_id=created.abandoned_game_id)


@router.get("/solo/games/current", response_model=SoloGameOut | None, responses=problems(401))
async def current_solo_game(me: Me, session: Session) -> SoloGameOut | None:
    """My solo game in progress, or ``null`` (200: having none is no error — a 404 here
    was console noise on every visit of the Solo screen)."""
    game = await games.current_game(session=session, player_id=me.id)
    return None if game is None else await game_out(session, game)


@router.get("/solo/games/{game_id}", response_model=SoloGameOut, responses=problems(401, 404))
async def solo_game(game_id: Id, me: MaybeMe, session: Session, play: Play) -> SoloGameOut:
    """A game over, or my own game in progress (with my token)."""
    game = await games.visible_game(session=session, game_id=game_id,
                                    viewer_id=None if me is None else me.id)
    return await game_out(session, await play.refreshed(session=session, game=game))


@router.post("/solo/games/{game_id}/abandon", response_model=SoloGameOut,
             responses=problems(401, 403, 404, 409))
async def abandon_solo_game(game_id: Id, me: Me, session: Session, play: Play
                            ) -> SoloGameOut:
    """Give my game up (for a daily game, that day's attempt is spent)."""
    game = await play.abandon(player_id=me.id, game_id=game_id)
    return await game_out(session, game)


@router.get("/solo/games/{game_id}/record", responses=problems(401, 404, 409))
async def solo_game_record(game_id: Id, me: MaybeMe, session: Session) -> dict[str, Any]:
    """The rule book's record (``spider replay`` reads it), once the game is over. A game
    in progress is not found, as ``GET /solo/games/{id}`` says, except to its player."""
    game = await games.visible_game(session=session, game_id=game_id,
                                    viewer_id=None if me is None else me.id)
    log = await games.logged_actions(session=session, game_id=game.id)
    return games.record_of(game, log).to_json()


@router.get("/players/{player_id}/solo/games", response_model=SoloGamesPage,
            responses=problems(401, 404))
async def player_solo_games(
    player_id: Id, me: MaybeMe, session: Session,
    kind: Annotated[SoloKind | None, Query()] = None,
    suits: Annotated[SuitCount | None, Query()] = None,
    status: Annotated[SoloStatus | None, Query()] = None,
    page: PageNumber = 1, page_size: PageSize = 20,
) -> SoloGamesPage:
    """A player's solo and daily games, newest first (in progress: to their player only)."""
    found = await games.player_games(
        session=session, player_id=player_id, viewer_id=None if me is None else me.id,
        kind=kind, suits=None if suits is None else int(suits), status=status, page=page,
        page_size=page_size)
    return SoloGamesPage(
        items=[SoloGameOut.model_validate(game_json(g, name)) for g, name in found.items],
        total=found.total, page=found.page, page_size=found.page_size)
