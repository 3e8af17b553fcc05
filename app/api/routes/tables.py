"""Tables: create, lobby, view, join, leave, new game, invite."""

from typing import Annotated

from fastapi import APIRouter, Body, Query, Request

from app.api import live_news
from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import Id, PageNumber, PageSize, page_meta, problems
from app.api.schemas import (
    DifficultyChoice,
    InviteIn,
    InviteOut,
    Level,
    SuitCount,
    TableIn,
    TableOut,
    TablePage,
)
from app.services import invites, lobby, tables

router = APIRouter(prefix="/api/tables", tags=["tables"])
TimeLimit = Annotated[int | None, Query(ge=1, le=10**6)]


@router.post("", status_code=201, response_model=TableOut, responses=problems(401))
async def create_table(body: TableIn, player: Me, session: Session,
                       request: Request) -> TableOut:
    """Open a table and sit at seat 0; it waits in the lobby (if public) for an opponent."""
    settings = tables.TableSettings(
        preset=body.preset, suits=body.suits, time_limit_seconds=body.time_limit_seconds,
        level=body.level, public=body.public, rated=body.rated, difficulty=body.difficulty,
    )
    view = await tables.create_table(
        session=session, owner=player, settings=settings,
        ttl_seconds=request.app.state.settings.table_ttl_seconds,
    )
    out = TableOut.of(view)
    await live_news.table_changed(request, "table_created", out)  # live lobby (issue 5)
    return out


@router.get("", response_model=TablePage, responses=problems(401))
async def list_open_tables(
    player: Me,
    session: Session,
    suits: Annotated[SuitCount | None, Query()] = None,
    level: Level | None = None,
    preset: Annotated[str | None, Query(pattern="^(duel|classic)$")] = None,
    difficulty: Annotated[DifficultyChoice | None, Query()] = None,
    min_time_limit: TimeLimit = None,
    max_time_limit: TimeLimit = None,
    page: PageNumber = 1,
    page_size: PageSize = 20,
) -> TablePage:
    """The lobby: open public tables that you may join."""
    filters = lobby.LobbyFilter(suits=suits, level=level, preset=preset, difficulty=difficulty,
                                min_time_limit=min_time_limit, max_time_limit=max_time_limit)
    found = await lobby.open_tables(session=session, viewer=player, filters=filters,
                                    page=page, page_size=page_size)
    return TablePage(items=[TableOut.of(view) for view in found.items], **page_meta(found))


@router.get("/mine", response_model=TablePage, responses=problems(401))
async def my_tables(player: Me, session: Session, page: PageNumber = 1,
                    page_size: PageSize = 20) -> TablePage:
    """Tables I sit at (not closed or expired), newest first, with their current match:
    the lobby's and header's way back to my game."""
    found = await lobby.my_tables(session=session, player=player, page=page,
                                  page_size=page_size)
    return TablePage(items=[TableOut.of(view) for view in found.items], **page_meta(found))


@router.get("/{table_id}", response_model=TableOut, responses=problems(401, 404))
async def get_table(table_id: Id, player: Me, session: Session) -> TableOut:
    table = await tables.get_table(session=session, table_id=table_id, viewer=player)
    return TableOut.of(await tables.table_view(session=session, table=table))


@router.post("/{table_id}/join", response_model=TableOut,
             responses=problems(401, 403, 404, 409))
async def join_table(table_id: Id, player: Me, session: Session,
                     request: Request) -> TableOut:
    """Take the free seat; the first match starts when both seats are taken."""
    out = TableOut.of(await tables.join_table(session=session, table_id=table_id,
                                              player=player))
    await live_news.table_changed(request, "seat_taken", out)  # live lobby (issue 5)
    return out


@router.post("/{table_id}/leave", response_model=TableOut,
             responses=problems(401, 403, 404, 409))
async def leave_table(table_id: Id, player: Me, session: Session,
                      request: Request) -> TableOut:
    out = TableOut.of(await tables.leave_table(session=session, table_id=table_id,
                                               player=player))
    await live_news.table_left(request, out)  # live lobby (issue 5)
    return out


@router.post("/{table_id}/new-game", response_model=TableOut,
             responses=problems(401, 403, 404, 409))
async def new_game(table_id: Id, player: Me, session: Session,
                   request: Request) -> TableOut:
    """Agree to another match; it starts (new deal) once both players agreed."""
    out = TableOut.of(await tables.agree_new_game(session=session, table_id=table_id,
                                                  player=player))
    await live_news.table_changed(request, "table_updated", out)  # live (issue 5)
    return out


@router.post("/{table_id}/invites", status_code=201, response_model=InviteOut,
             responses=problems(401, 403, 404, 409, invalid=("self",)))
async def invite(table_id: Id, player: Me, session: Session, request: Request,
                 body: Annotated[InviteIn | None, Body()] = None) -> InviteOut:
    """Invite a friend by name, or (without ``to``, or without a body) make a link
    invitation."""
    view = await invites.create_invite(
        session=session, table_id=table_id, inviter=player, to=body.to if body else None,
        ttl_seconds=request.app.state.settings.invite_ttl_seconds,
    )
    out = InviteOut.of(view)
    await live_news.invite_sent(request, out)  # the invitee gets it live (issue 5)
    return out
