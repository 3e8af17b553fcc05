"""Invitations: my incoming ones; view, accept, decline or cancel by code."""

from typing import Annotated

from fastapi import APIRouter, Path, Request

from app.api import live_news
from app.api.auth import MaybeMe, Me
from app.api.database import Session
from app.api.routes.common import my_list, problems
from app.api.schemas import InviteOut, InvitePage, PublicInviteOut, TableOut
from app.services import invites, tables

router = APIRouter(prefix="/api", tags=["invites"])
Code = Annotated[str, Path(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


my_list(router, "/me/invites", name="incoming", lister=invites.incoming_invites,
        answer=InvitePage, item=InviteOut.of,
        doc="Pending, unexpired invitations addressed to me, newest first.")


@router.get("/invites/{code}", response_model=InviteOut | PublicInviteOut,
            responses=problems(401, 404))
async def get_invite(code: Code, player: MaybeMe, session: Session
                     ) -> InviteOut | PublicInviteOut:
    """With a token: the whole invitation. Without (the link's landing page, before a name
    is chosen): who invites to what game, for a link invitation only."""
    if player is None:
        return PublicInviteOut.of(await invites.public_invite(session=session, code=code))
    view = await invites.get_invite(session=session, code=code, viewer=player)
    table = TableOut.of(await tables.table_view(session=session, table=view.table))
    return InviteOut.of(view, table)


@router.post("/invites/{code}/accept", response_model=TableOut,
             responses=problems(401, 403, 404, 409, invalid=("self",)))
async def accept(code: Code, player: Me, session: Session, request: Request) -> TableOut:
    """Sit down at the invitation's table (whatever its visibility or level)."""
    out = TableOut.of(await invites.accept_invite(session=session, code=code, player=player))
    await live_news.table_changed(request, "seat_taken", out)  # live lobby (issue 5)
    return out


@router.post("/invites/{code}/decline", response_model=InviteOut,
             responses=problems(401, 403, 404, 409))
async def decline(code: Code, player: Me, session: Session, request: Request) -> InviteOut:
    out = InviteOut.of(await invites.decline_invite(session=session, code=code, player=player))
    await live_news.invite_declined(request, out)  # the sender's waiting table says so
    return out


@router.delete("/invites/{code}", response_model=InviteOut,
               responses=problems(401, 403, 404, 409))
async def cancel(code: Code, player: Me, session: Session) -> InviteOut:
    return InviteOut.of(await invites.cancel_invite(session=session, code=code, player=player))
