"""Friends (one-way contact list) and ignores, with the ignore rules other services ask.

An ignored player cannot invite you, join your tables, or see your private tables.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app.db.models import Friendship, Ignore, Player
from app.errors import Conflict, InvalidInput, NotFound
from app.rooms.presence import NobodyOnline, Presence
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
    await session.commit()


async def _list_contacts(session: AsyncSession, player: Player, page: int, page_size: int,
                         contacts: ContactList, presence: Presence) -> Page[Contact]:
    query = (select(Player, contacts.model.created_at)
             .join(contacts.model, contacts.other == Player.id)
             .where(contacts.model.player_id == player.id)
             .order_by(Player.name_key))
    rows, total = await page_rows(session, query, page=page, page_size=page_size)
    items = [Contact(p.id, p.name, since, presence.is_online(p.id)) for p, since in rows]
    return Page(items, total, page, page_size)


async def list_friends(
    *, session: AsyncSession, player: Player, page: int, page_size: int,
    presence: Presence | None = None,
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


async def ignored_by_any(*, session: AsyncSession, player_id: int, of: list[int]) -> bool:
    """Does any of the players ``of`` ignore ``player_id``?"""
    if not of:
        return False
    found = await session.scalar(
        select(Ignore.player_id).where(Ignore.ignored_id == player_id,
                                       Ignore.player_id.in_(of)).limit(1)
    )
    return found is not None


