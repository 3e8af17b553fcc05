"""Friends (one-way contact list) and ignores, with the ignore rules other services ask.

An ignored player cannot invite you, join your tables, or see your private tables.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Delete, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

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


async def _add_once(session: AsyncSession, row: Friendship | Ignore, key: tuple[int, int],
                    refusal: Conflict) -> None:
    """Store a friend or ignore row unless it exists; ``refusal`` if it does."""
    if await session.get(type(row), key) is not None:
        raise refusal
    session.add(row)
    try:
        await session.commit()
    except IntegrityError:  # the same request twice at once
        await session.rollback()
        raise refusal from None


async def _delete_once(session: AsyncSession, statement: Delete, refusal: NotFound) -> None:
    """Delete the one row ``statement`` names; ``refusal`` when there is none."""
    result = await session.execute(statement)
    if getattr(result, "rowcount", 0) == 0:
        await session.rollback()
        raise refusal
    await session.commit()


async def add_friend(*, session: AsyncSession, player: Player, name: str) -> Contact:
    friend = await _contact_target(session, player, name)
    row = Friendship(player_id=player.id, friend_id=friend.id)
    await _add_once(session, row, (player.id, friend.id),
                    Conflict(f"{friend.name} is already your friend", code="already_friend"))
    return Contact(friend.id, friend.name, row.created_at, False)


async def remove_friend(*, session: AsyncSession, player: Player, friend_id: int) -> None:
    await _delete_once(session, delete(Friendship).where(
        Friendship.player_id == player.id, Friendship.friend_id == friend_id),
        NotFound(f"player {friend_id} is not in your friend list", code="not_friend"))


async def list_friends(
    *, session: AsyncSession, player: Player, page: int, page_size: int,
    presence: Presence | None = None,
) -> Page[Contact]:
    """My friends by name, with their online flags."""
    presence = presence or NobodyOnline()
    query = (select(Player, Friendship.created_at)
             .join(Friendship, Friendship.friend_id == Player.id)
             .where(Friendship.player_id == player.id)
             .order_by(Player.name_key))
    rows, total = await page_rows(session, query, page=page, page_size=page_size)
    items = [Contact(p.id, p.name, since, presence.is_online(p.id)) for p, since in rows]
    return Page(items, total, page, page_size)


async def is_friend(*, session: AsyncSession, player_id: int, friend_id: int) -> bool:
    return await session.get(Friendship, (player_id, friend_id)) is not None


async def add_ignore(*, session: AsyncSession, player: Player, name: str) -> Contact:
    other = await _contact_target(session, player, name)
    row = Ignore(player_id=player.id, ignored_id=other.id)
    await _add_once(session, row, (player.id, other.id),
                    Conflict(f"you already ignore {other.name}", code="already_ignored"))
    return Contact(other.id, other.name, row.created_at, False)


async def remove_ignore(*, session: AsyncSession, player: Player, ignored_id: int) -> None:
    await _delete_once(session, delete(Ignore).where(
        Ignore.player_id == player.id, Ignore.ignored_id == ignored_id),
        NotFound(f"you do not ignore player {ignored_id}", code="not_ignored"))


async def list_ignores(*, session: AsyncSession, player: Player, page: int, page_size: int
                       ) -> Page[Contact]:
    """The players I ignore, by name."""
    query = (select(Player, Ignore.created_at)
             .join(Ignore, Ignore.ignored_id == Player.id)
             .where(Ignore.player_id == player.id)
             .order_by(Player.name_key))
    rows, total = await page_rows(session, query, page=page, page_size=page_size)
    return Page([Contact(p.id, p.name, since, False) for p, since in rows], total, page, page_size)


async def ignored_by_any(*, session: AsyncSession, player_id: int, of: list[int]) -> bool:
    """Does any of the players ``of`` ignore ``player_id``?"""
    if not of:
        return False
    found = await session.scalar(
        select(Ignore.player_id).where(Ignore.ignored_id == player_id,
                                       Ignore.player_id.in_(of)).limit(1)
    )
    return found is not None


