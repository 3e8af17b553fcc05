"""Quick duel: one request that seats me into the match of a waiting player of my band and
suit count, else starts my match at once, paired later with the next player who asks
(app/services/quick_duel.py; the pairing rule in docs/api.md, "Quick duel")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response
from pydantic import BaseModel, Field

from app.api import live_news
from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import problems
from app.api.schemas import Suits, TableOut
from app.messaging import channels
from app.rooms import frames
from app.services import quick_duel

router = APIRouter(prefix="/api/quick-duel", tags=["tables"])


class QuickDuelIn(BaseModel):
    suits: Suits = 1


class QuickDuelOut(BaseModel):
    paired: bool
    """True: seated into a waiting player's match (both players known). False: my match
    has started with my game only; the next player of my band who asks for the same suit
    count is paired into it. Either way ``table.match_id`` is my match, to play now."""
    table: TableOut
    looking: int = Field(ge=0, description="players waiting for a quick duel now")


class LookingOut(BaseModel):
    looking: int = Field(ge=0, description="players waiting for a quick duel now")


async def _tell_looking(request: Request, session: Session) -> int:
    """The lobby learns at once how many players are looking (``quick_looking``)."""
    count = await quick_duel.looking(session=session)
    rooms = getattr(request.app.state, "rooms", None)
    if rooms is not None:
        await rooms.pubsub.publish(channels.LOBBY, frames.quick_looking(count))
    return count


async def _seated_into(request: Request, match_id: int, player_id: int) -> None:
    """This process's copy of the match learns its second seat (a copy made while the
    match waited has one), and the first player's game page sees the opponent at once
    (their progress: not started, until the deadline)."""
    rooms = getattr(request.app.state, "rooms", None)
    if rooms is None:
        return
    if rooms.duels.cached(match_id):
        await rooms.duels.reload(match_id)
    await rooms.duels.match(match_id)
    await rooms.duels.online_changed(player_id)


@router.get("", response_model=LookingOut, responses=problems(401))
async def quick_looking(me: Me, session: Session) -> LookingOut:
    """How many players wait for a quick duel now."""
    return LookingOut(looking=await quick_duel.looking(session=session))


@router.post("", status_code=201, response_model=QuickDuelOut,
             responses={200: {"model": QuickDuelOut, "description": "paired: a seat at a "
                              "waiting player's table (the match starts), or my table, "
                              "still waiting"},
                        **problems(401, 409)})
async def take_quick_duel(me: Me, session: Session, request: Request, response: Response,
                          body: Annotated[QuickDuelIn | None, Body()] = None) -> QuickDuelOut:
    """A duel now: a seat in the match of the oldest waiting quick table of my band and
    suit count (200, paired), my quick duel whose game is still to be played (200), or a
    new match that starts at once with my game only (201)."""
    suits = (body or QuickDuelIn()).suits
    taken = await quick_duel.take_quick_duel(
        session=session, player=me, suits=suits,
        deadline_seconds=request.app.state.settings.quick_duel_deadline_seconds)
    out = TableOut.of(taken.view)
    if not taken.created:
        response.status_code = 200
    if taken.paired and out.match_id is not None:
        await _seated_into(request, out.match_id, me.id)
    if taken.paired or taken.created:  # private: to its players only
        await live_news.table_changed(request, "seat_taken" if taken.paired else
                                      "table_created", out)
    return QuickDuelOut(paired=taken.paired, table=out,
                        looking=await _tell_looking(request, session))


@router.delete("", status_code=204, responses=problems(401))
async def give_up_quick_duel(me: Me, session: Session, request: Request) -> Response:
    """Stop looking: my quick duel waiting for an opponent lapses now (its match ends
    without one once my game is over); nothing when none waits."""
    lapsed = await quick_duel.stop_looking(session=session, player=me)
    rooms = getattr(request.app.state, "rooms", None)
    for match_id in lapsed:
        if rooms is not None and rooms.duels.cached(match_id):
            await rooms.duels.reload(match_id)  # ends it now if my game is over
    await _tell_looking(request, session)
    return Response(status_code=204)
