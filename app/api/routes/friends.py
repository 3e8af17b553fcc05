"""My friend list (with online flags) and my ignore list."""

from fastapi import APIRouter, Request, Response

from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import Id, PageNumber, PageSize, page_meta, problems
from app.api.schemas import ContactOut, ContactPage, NameIn
from app.services import friends

router = APIRouter(prefix="/api/me", tags=["friends"])


@router.get("/friends", response_model=ContactPage, responses=problems(401))
async def list_friends(player: Me, session: Session, request: Request,
                       page: PageNumber = 1, page_size: PageSize = 20) -> ContactPage:
    """My friends by name, each with ``online`` (from the presence hook)."""
    found = await friends.list_friends(session=session, player=player, page=page,
                                       page_size=page_size, presence=request.app.state.presence)
    return ContactPage(items=[ContactOut.of(c) for c in found.items], **page_meta(found))


@router.post("/friends", status_code=201, response_model=ContactOut,
             responses=problems(401, 404, 409, invalid=("self",)))
async def add_friend(body: NameIn, player: Me, session: Session) -> ContactOut:
    return ContactOut.of(await friends.add_friend(session=session, player=player,
                                                  name=body.name))


@router.delete("/friends/{player_id}", status_code=204, responses=problems(401, 404))
async def remove_friend(player_id: Id, player: Me, session: Session) -> Response:
    await friends.remove_friend(session=session, player=player, friend_id=player_id)
    return Response(status_code=204)


@router.get("/ignores", response_model=ContactPage, responses=problems(401))
async def list_ignores(player: Me, session: Session, page: PageNumber = 1,
                       page_size: PageSize = 20) -> ContactPage:
    """The players I ignore, by name."""
    found = await friends.list_ignores(session=session, player=player, page=page,
                                       page_size=page_size)
    return ContactPage(items=[ContactOut.of(c) for c in found.items], **page_meta(found))


@router.post("/ignores", status_code=201, response_model=ContactOut,
             responses=problems(401, 404, 409, invalid=("self",)))
async def add_ignore(body: NameIn, player: Me, session: Session) -> ContactOut:
    return ContactOut.of(await friends.add_ignore(session=session, player=player,
                                                  name=body.name))


@router.delete("/ignores/{player_id}", status_code=204, responses=problems(401, 404))
async def remove_ignore(player_id: Id, player: Me, session: Session) -> Response:
    await friends.remove_ignore(session=session, player=player, ignored_id=player_id)
    return Response(status_code=204)
