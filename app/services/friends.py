"""Friends and ignores, with the ignore rules other services ask.

Friends are mutual (issue 25): a friend request, accepted, writes the friendship both
ways; removing a friend removes both sides. ``add_contact`` serves the ignore list; no
route adds a friend one way.

Ignores block both ways: neither player can invite the other, join a table where the
other sits, see it in the lobby, or see the other's private tables.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import ColumnElement, and_, delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app.db.models import FriendRequest, Friendship, Ignore, Player
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.messaging.presence import NobodyOnline, PresenceRegistry
from app.services.paging import Page, page_rows
from app.services.players import find_by_name


@dataclass(frozen=True)
class Contact:
    id: int
    name: str
    since: datetime
    online: bool


async def _contact_target(session: AsyncSession, player: Player, name: str) -> Player:
    other = await find_by_name(session=session, name=name)
    if other.id == player.id:
        raise InvalidInput("you cannot add yourself", code="self")
    return other


@dataclass(frozen=True)
class ContactList:
    """Friends or ignores: one table of (player, other player) rows, and its refusals."""

    model: type[Friendship] | type[Ignore]
    other: InstrumentedAttribute[int]  # the column naming the other player
    already: Callable[[str], Conflict]  # the other player's name
    absent: Callable[[int], NotFound]  # the other player's id

    def row(self, player_id: int, other_id: int) -> Friendship | Ignore:
        return self.model(player_id=player_id, **{self.other.key: other_id})


FRIENDS = ContactList(
    Friendship, Friendship.friend_id,
    lambda name: Conflict(f"{name} is already your friend", code="already_friend"),
    lambda other_id: NotFound(f"player {other_id} is not in your friend list",
                              code="not_friend"))
IGNORES = ContactList(
    Ignore, Ignore.ignored_id,
    lambda name: Conflict(f"you already ignore {name}", code="already_ignored"),
    lambda other_id: NotFound(f"you do not ignore player {other_id}", code="not_ignored"))


async def add_contact(*, session: AsyncSession, player: Player, name: str,
                      contacts: ContactList) -> Contact:
    """Add the player called ``name`` to one of my lists, unless they are on it."""
    other = await _contact_target(session, player, name)
    refusal = contacts.already(other.name)
    if await session.get(contacts.model, (player.id, other.id)) is not None:
        raise refusal
    row = contacts.row(player.id, other.id)
    session.add(row)
    if contacts is IGNORES:  # an ignore ends the friend requests between the two
        await session.execute(delete(FriendRequest).where(_requests_between(player.id, other.id)))
    try:
        await session.commit()
    except IntegrityError:  # the same request twice at once
        await session.rollback()
        raise refusal from None
    return Contact(other.id, other.name, row.created_at, False)


async def remove_contact(*, session: AsyncSession, player: Player, other_id: int,
                         contacts: ContactList) -> None:
    """Take ``other_id`` off one of my lists."""
    result = await session.execute(delete(contacts.model).where(
        contacts.model.player_id == player.id, contacts.other == other_id))
    if getattr(result, "rowcount", 0) == 0:
        await session.rollback()
        raise contacts.absent(other_id)
    if contacts is FRIENDS:  # mutual: the other side goes with it
        await session.execute(delete(Friendship).where(
            Friendship.player_id == other_id, Friendship.friend_id == player.id))
    await session.commit()


async def _list_contacts(session: AsyncSession, player: Player, page: int, page_size: int,
                         contacts: ContactList, presence: PresenceRegistry) -> Page[Contact]:
    query = (select(Player, contacts.model.created_at)
             .join(contacts.model, contacts.other == Player.id)
             .where(contacts.model.player_id == player.id)
             .order_by(Player.name_key))
    rows, total = await page_rows(session, query, page=page, page_size=page_size)
    items = [Contact(p.id, p.name, since, presence.is_online(p.id)) for p, since in rows]
    return Page(items, total, page, page_size)


async def list_friends(
    *, session: AsyncSession, player: Player, page: int, page_size: int,
    presence: PresenceRegistry | None = None,
) -> Page[Contact]:
    """My friends by name, with their online flags."""
    return await _list_contacts(session, player, page, page_size, FRIENDS,
                                presence or NobodyOnline())


async def is_friend(*, session: AsyncSession, player_id: int, friend_id: int) -> bool:
    return await session.get(Friendship, (player_id, friend_id)) is not None


async def list_ignores(*, session: AsyncSession, player: Player, page: int, page_size: int
                       ) -> Page[Contact]:
    """The players I ignore, by name (never shown online)."""
    return await _list_contacts(session, player, page, page_size, IGNORES, NobodyOnline())


IgnoreSide = Literal["ignored", "ignoring"]
"""Which way an ignore stands between a player and others: they ignore the player
(``ignored``), or the player ignores one of them (``ignoring``)."""


def ignore_stands_between(player_id: int, other: InstrumentedAttribute[int]
                          ) -> ColumnElement[bool]:
    """SQL, over ``ignores``: ``player_id`` ignores ``other`` (a column naming a player,
    such as ``Seat.player_id``) or is ignored by them.
    Ignores block both ways (as on chess sites): neither meets the other at a table."""
    return or_(and_(Ignore.player_id == player_id, Ignore.ignored_id == other),
               and_(Ignore.ignored_id == player_id, Ignore.player_id == other))


async def ignore_between_any(*, session: AsyncSession, player_id: int, of: list[int]
                             ) -> IgnoreSide | None:
    """Does an ignore stand between ``player_id`` and any of the players ``of``, and which
    way? ``ignored`` wins when both stand (it is the other player's wish)."""
    if not of:
        return None
    ignorers = set(await session.scalars(
        select(Ignore.player_id).where(or_(
            and_(Ignore.ignored_id == player_id, Ignore.player_id.in_(of)),
            and_(Ignore.player_id == player_id, Ignore.ignored_id.in_(of))))))
    if not ignorers:
        return None
    return "ignoring" if ignorers == {player_id} else "ignored"


async def ignored_among(*, session: AsyncSession, player_id: int, of: list[int]) -> set[int]:
    """The players among ``of`` whom an ignore separates from ``player_id``, either way
    (they ignore the player, or the player ignores them)."""
    if not of:
        return set()
    rows = await session.execute(select(Ignore.player_id, Ignore.ignored_id).where(or_(
        and_(Ignore.ignored_id == player_id, Ignore.player_id.in_(of)),
        and_(Ignore.player_id == player_id, Ignore.ignored_id.in_(of)))))
    return {a if b == player_id else b for a, b in rows}


# --------------------------------------------------------------------------- friend requests


@dataclass(frozen=True)
class PendingRequest:
    """A friend request still waiting: the other player (who asked me, or whom I asked)."""

    id: int
    name: str
    since: datetime


@dataclass(frozen=True)
class FriendRequests:
    incoming: list[PendingRequest]
    outgoing: list[PendingRequest]


RequestOutcome = Literal["requested", "friends"]
"""What a request did: it waits for the other player, or it answered theirs (friends)."""

MAX_LISTED_REQUESTS = 100


def _requests_between(a: int, b: int) -> ColumnElement[bool]:
    return or_(and_(FriendRequest.player_id == a, FriendRequest.invitee_id == b),
               and_(FriendRequest.player_id == b, FriendRequest.invitee_id == a))


def _no_request(other_id: int) -> NotFound:
    return NotFound(f"no friend request between you and player {other_id}",
                    code="no_friend_request")


async def _befriend_both_ways(session: AsyncSession, a: int, b: int) -> datetime:
    """The friendship both ways (rows already there kept), no request left between."""
    await session.execute(delete(FriendRequest).where(_requests_between(a, b)))
    since = None
    for player_id, friend_id in ((a, b), (b, a)):
        row = await session.get(Friendship, (player_id, friend_id))
        if row is None:
            row = Friendship(player_id=player_id, friend_id=friend_id)
            session.add(row)
            await session.flush()
        since = since or row.created_at
    assert since is not None
    return since


async def request_friend(*, session: AsyncSession, player: Player, name: str
                         ) -> tuple[RequestOutcome, PendingRequest]:
    """Ask the player called ``name`` to be friends. If they had asked me, this answers
    yes: we are friends at once. Refused: myself (``self``), a friend already
    (``already_friend``), a request of mine still waiting (``request_pending``), an
    ignore either way (``ignored``: they ignore me; ``ignoring``: I ignore them)."""
    other = await _contact_target(session, player, name)
    mine = await session.get(Friendship, (player.id, other.id))
    theirs = await session.get(Friendship, (other.id, player.id))
    if mine is not None and theirs is not None:
        raise Conflict(f"{other.name} is already your friend", code="already_friend")
    ignore = await ignore_between_any(session=session, player_id=player.id, of=[other.id])
    if ignore == "ignored":
        raise Forbidden(f"{other.name} does not accept your requests", code="ignored")
    if ignore == "ignoring":
        raise Forbidden(f"you ignore {other.name}", code="ignoring")
    if await session.get(FriendRequest, (other.id, player.id)) is not None:
        since = await _befriend_both_ways(session, player.id, other.id)
        await session.commit()
        return ("friends", PendingRequest(other.id, other.name, since))
    pending = Conflict(f"your request to {other.name} is still waiting", code="request_pending")
    if await session.get(FriendRequest, (player.id, other.id)) is not None:
        raise pending
    row = FriendRequest(player_id=player.id, invitee_id=other.id)
    session.add(row)
    try:
        await session.commit()
    except IntegrityError:  # the same request twice at once
        await session.rollback()
        raise pending from None
    return ("requested", PendingRequest(other.id, other.name, row.created_at))


async def list_requests(*, session: AsyncSession, player: Player) -> FriendRequests:
    """The requests waiting for my answer and mine waiting for theirs, newest first (at
    most ``MAX_LISTED_REQUESTS`` each)."""
    async def listed(mine: bool) -> list[PendingRequest]:
        me, other = ((FriendRequest.player_id, FriendRequest.invitee_id) if mine
                     else (FriendRequest.invitee_id, FriendRequest.player_id))
        rows = await session.execute(
            select(Player.id, Player.name, FriendRequest.created_at)
            .join(FriendRequest, other == Player.id).where(me == player.id)
            .order_by(FriendRequest.created_at.desc(), Player.id)
            .limit(MAX_LISTED_REQUESTS))
        return [PendingRequest(i, n, since) for i, n, since in rows]

    return FriendRequests(incoming=await listed(False), outgoing=await listed(True))


async def accept_request(*, session: AsyncSession, player: Player, other_id: int
                         ) -> PendingRequest:
    """Yes to ``other_id``'s request: friends both ways."""
    if await session.get(FriendRequest, (other_id, player.id)) is None:
        raise _no_request(other_id)
    other = await session.get(Player, other_id)
    assert other is not None  # the request's row would be gone with the player
    since = await _befriend_both_ways(session, player.id, other_id)
    await session.commit()
    return PendingRequest(other.id, other.name, since)


async def drop_request(*, session: AsyncSession, player: Player, other_id: int, mine: bool
                       ) -> None:
    """Decline ``other_id``'s request to me, or (``mine``) withdraw mine to them."""
    key = (player.id, other_id) if mine else (other_id, player.id)
    row = await session.get(FriendRequest, key)
    if row is None:
        raise _no_request(other_id)
    await session.delete(row)
    await session.commit()
