"""My friend list (with online flags), friend requests, and my ignore list."""

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Request, Response

from app.api import live_news
from app.api.auth import Me
from app.api.database import Session
from app.api.routes.common import Id, PageNumber, PageSize, my_list, problems
from app.api.schemas import (
    ContactOut,
    ContactPage,
    FriendRequestOut,
    FriendRequestSent,
    FriendRequestsOut,
    NameIn,
)
from app.db.models import Player
from app.services import friends

router = APIRouter(prefix="/api/me", tags=["friends"])

Removed = Callable[[Request, Player, int], Awaitable[None]]


def _removes(path: str, contacts: friends.ContactList, noun: str,
             removed: Removed | None = None) -> None:
    """``DELETE /{path}/{player_id}``: alike for both of my lists (the operations keep
    their names, ``remove_friend``, ``remove_ignore``); ``removed`` tells whom it concerns
    once a removal is committed."""

    @router.delete(f"/{path}/{{player_id}}", status_code=204, name=f"remove_{noun}",
                   responses=problems(401, 404))
    async def remove(player_id: Id, player: Me, session: Session, request: Request
                     ) -> Response:
        await friends.remove_contact(session=session, player=player, other_id=player_id,
                                     contacts=contacts)
        if removed is not None:
            await removed(request, player, player_id)
        return Response(status_code=204)


@router.get("/friends", response_model=ContactPage, responses=problems(401))
async def list_friends(player: Me, session: Session, request: Request,
                       page: PageNumber = 1, page_size: PageSize = 20) -> ContactPage:
    """My friends by name, each with ``online`` (from the presence hook)."""
    found = await friends.list_friends(session=session, player=player, page=page,
                                       page_size=page_size, presence=request.app.state.presence)
    return ContactPage.of(found, ContactOut.of)


async def _friend_removed(request: Request, player: Player, other_id: int) -> None:
    await live_news.friend_news(request, to=other_id, change="removed", about=player)


_removes("friends", friends.FRIENDS, "friend", _friend_removed)


# ---- friend requests (issue 25): friends are mutual


@router.get("/friend-requests", response_model=FriendRequestsOut, responses=problems(401))
async def list_friend_requests(player: Me, session: Session) -> FriendRequestsOut:
    """Requests waiting for my answer (`incoming`) and mine waiting for theirs."""
    found = await friends.list_requests(session=session, player=player)
    return FriendRequestsOut(incoming=[FriendRequestOut.of(r) for r in found.incoming],
                             outgoing=[FriendRequestOut.of(r) for r in found.outgoing])


@router.post("/friend-requests", status_code=201, response_model=FriendRequestSent,
             responses=problems(401, 403, 404, 409, invalid=("self",)))
@router.post("/friends", status_code=201, response_model=FriendRequestSent,
             name="add_friend", responses=problems(401, 403, 404, 409, invalid=("self",)))
async def request_friend(body: NameIn, player: Me, session: Session, request: Request
                         ) -> FriendRequestSent:
    """Ask a player to be friends; told to them live (`friend` frame). If they had asked
    me, we are friends at once (`status` `friends`). ``POST /friends``, the older direct
    add, asks the same way: friends are mutual, nobody is on my list without saying yes
    (it used to add one way, which let anyone watch a player's online flag and invite
    them)."""
    outcome, other = await friends.request_friend(session=session, player=player,
                                                  name=body.name)
    await live_news.friend_news(request, to=other.id, about=player,
                                change="requested" if outcome == "requested" else "accepted")
    return FriendRequestSent(status=outcome, player=FriendRequestOut.of(other))


@router.post("/friend-requests/{player_id}/accept", response_model=ContactOut,
             responses=problems(401, 404))
async def accept_friend_request(player_id: Id, player: Me, session: Session,
                                request: Request) -> ContactOut:
    """Yes: friends both ways; the other player is told live."""
    other = await friends.accept_request(session=session, player=player, other_id=player_id)
    await live_news.friend_news(request, to=other.id, change="accepted", about=player)
    online = request.app.state.presence.is_online(other.id)
    return ContactOut(id=other.id, name=other.name, since=other.since, online=online)


@router.post("/friend-requests/{player_id}/decline", status_code=204,
             responses=problems(401, 404))
async def decline_friend_request(player_id: Id, player: Me, session: Session,
                                 request: Request) -> Response:
    await friends.drop_request(session=session, player=player, other_id=player_id, mine=False)
    await live_news.friend_news(request, to=player_id, change="declined", about=player)
    return Response(status_code=204)


@router.delete("/friend-requests/{player_id}", status_code=204, responses=problems(401, 404))
async def withdraw_friend_request(player_id: Id, player: Me, session: Session,
                                  request: Request) -> Response:
    """Withdraw my request to that player."""
    await friends.drop_request(session=session, player=player, other_id=player_id, mine=True)
    await live_news.friend_news(request, to=player_id, change="cancelled", about=player)
    return Response(status_code=204)


my_list(router, "/ignores", name="list_ignores", lister=friends.list_ignores,
        answer=ContactPage, item=ContactOut.of, doc="The players I ignore, by name.")


@router.post("/ignores", status_code=201, response_model=ContactOut, name="add_ignore",
             responses=problems(401, 404, 409, invalid=("self",)))
async def add_ignore(body: NameIn, player: Me, session: Session) -> ContactOut:
    """Ignore a player (both ways, docs/api.md); ends the friend requests between us."""
    return ContactOut.of(await friends.add_contact(session=session, player=player,
                                                   name=body.name, contacts=friends.IGNORES))


_removes("ignores", friends.IGNORES, "ignore")
