"""Tables: create, lobby, view, join, leave, new game, invite."""

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Query, Request

from app.api import live_news
from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import Id, PageNumber, PageSize, my_list, problems
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
from app.services.tables import TableView

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
    """The lobby: open public tables that you may join; ``level``: those open to that
    level (its own, and any level)."""
    filters = lobby.LobbyFilter(suits=suits, level=level, preset=preset, difficulty=difficulty,
                                min_time_limit=min_time_limit, max_time_limit=max_time_limit)
    found = await lobby.open_tables(session=session, viewer=player, filters=filters,
                                    page=page, page_size=page_size)
    return TablePage.of(found, TableOut.of)


my_list(router, "/mine", name="my_tables", lister=lobby.my_tables, answer=TablePage,
        item=TableOut.of, doc="Tables I sit at (not closed or expired), newest first, with "
        "their current match:\nthe lobby's and header's way back to my game.")


@router.get("/{table_id}", response_model=TableOut, responses=problems(401, 404))
async def get_table(table_id: Id, player: Me, session: Session) -> TableOut:
    table = await tables.get_table(session=session, table_id=table_id, viewer=player)
    return TableOut.of(await tables.table_view(session=session, table=table))


SeatMove = Callable[..., Awaitable[TableView]]  # (session=, table_id=, player=) -> the table
Announce = Callable[..., Awaitable[None]]  # (request, table=) -> None: tell the live layer


def _seat_move(path: str, name: str, move: SeatMove, announce: Announce,
               doc: str | None = None) -> None:
    """``POST /{table_id}/{path}``: a player's move at a table (join, leave, new game),
    answered with the table as it is now, which the live lobby learns at once (issue 5)."""

    @router.post(f"/{{table_id}}/{path}", response_model=TableOut, name=name, description=doc,
                 responses=problems(401, 403, 404, 409))
    async def seat_move(table_id: Id, player: Me, session: Session,
                        request: Request) -> TableOut:
        out = TableOut.of(await move(session=session, table_id=table_id, player=player))
        await announce(request, table=out)
        return out


_seat_move("join", "join_table", tables.join_table,
           partial(live_news.table_changed, change="seat_taken"),
           "Take the free seat; the first match starts when both seats are taken.")
_seat_move("new-game", "new_game", tables.agree_new_game,
           partial(live_news.table_changed, change="table_updated"),
           "Agree to another match; it starts (new deal) once both players agreed.")


@router.post("/{table_id}/leave", response_model=TableOut, name="leave_table",
             responses=problems(401, 403, 404, 409))
async def leave(table_id: Id, player: Me, session: Session, request: Request) -> TableOut:
    """Free my seat. The last player to leave closes the table, and its pending
    invitations with it (each direct invitee is told live)."""
    out = TableOut.of(await tables.leave_table(session=session, table_id=table_id,
                                               player=player))
    await live_news.table_left(request, table=out)
    if out.status == "closed":
        for view in await invites.withdraw_invites(session=session, table_id=table_id):
            await live_news.invite_withdrawn(request, InviteOut.of(view))
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
