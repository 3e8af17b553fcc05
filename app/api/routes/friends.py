"""My friend list (with online flags) and my ignore list."""

from fastapi import APIRouter, Request, Response

from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import Id, PageNumber, PageSize, my_list, problems
from app.api.schemas import ContactOut, ContactPage, NameIn
from app.services import friends

router = APIRouter(prefix="/api/me", tags=["friends"])


def _adds_and_removes(path: str, contacts: friends.ContactList, noun: str) -> None:
    """``POST /{path}`` and ``DELETE /{path}/{player_id}``: alike for both of my lists
    (the operations keep their names, ``add_friend``, ``remove_ignore``...)."""

    @router.post(f"/{path}", status_code=201, response_model=ContactOut, name=f"add_{noun}",
                 responses=problems(401, 404, 409, invalid=("self",)))
    async def add(body: NameIn, player: Me, session: Session) -> ContactOut:
        return ContactOut.of(await friends.add_contact(session=session, player=player,
                                                       name=body.name, contacts=contacts))

    @router.delete(f"/{path}/{{player_id}}", status_code=204, name=f"remove_{noun}",
                   responses=problems(401, 404))
    async def remove(player_id: Id, player: Me, session: Session) -> Response:
        await friends.remove_contact(session=session, player=player, other_id=player_id,
                                     contacts=contacts)
        return Response(status_code=204)


@router.get("/friends", response_model=ContactPage, responses=problems(401))
async def list_friends(player: Me, session: Session, request: Request,
                       page: PageNumber = 1, page_size: PageSize = 20) -> ContactPage:
    """My friends by name, each with ``online`` (from the presence hook)."""
    found = await friends.list_friends(session=session, player=player, page=page,
                                       page_size=page_size, presence=request.app.state.presence)
    return ContactPage.of(found, ContactOut.of)


_adds_and_removes("friends", friends.FRIENDS, "friend")


my_list(router, "/ignores", name="list_ignores", lister=friends.list_ignores,
        answer=ContactPage, item=ContactOut.of, doc="The players I ignore, by name.")


_adds_and_removes("ignores", friends.IGNORES, "ignore")
