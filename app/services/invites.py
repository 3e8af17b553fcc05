"""Invitations to a table: to a friend's account, or by link (an unguessable code).

Codes carry 256 random bits (``secrets.token_urlsafe(32)``). An invitation lets its
holder sit down whatever the table's visibility and level; ignores (both ways) still apply.
"""

import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import DuelTable, Ignore, Invite, Player, utcnow
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.services.friends import ignore_between_any, ignore_stands_between, is_friend
from app.services.paging import Page, page_rows
from app.services.players import find_by_name
from app.services.tables import SEATS, TableView, get_table, is_expired, seat_player, seats_of

CODE_BYTES = 32


def new_code() -> str:
    return secrets.token_urlsafe(CODE_BYTES)


@dataclass(frozen=True)
class InviteView:
    invite: Invite
    inviter_name: str
    invitee_name: str | None
    table: DuelTable

    @property
    def state(self) -> str:
        """pending / accepted / declined / cancelled, or expired (pending but too late)."""
        if self.invite.status == "pending" and self.invite.expires_at <= utcnow():
            return "expired"
        return self.invite.status


async def _view(session: AsyncSession, invite: Invite) -> InviteView:
    inviter = await session.get(Player, invite.inviter_id)
    invitee = await session.get(Player, invite.invitee_id) if invite.invitee_id else None
    table = await session.get(DuelTable, invite.table_id)
    assert inviter is not None and table is not None  # foreign keys
    return InviteView(invite, inviter.name, invitee.name if invitee else None, table)


async def create_invite(
    *, session: AsyncSession, table_id: int, inviter: Player, to: str | None, ttl_seconds: int
) -> InviteView:
    """Invite the friend named ``to``, or make a link invitation when ``to`` is None."""
    table = await get_table(session=session, table_id=table_id, viewer=inviter)
    seats = await seats_of(session, table.id)
    if inviter.id not in {seat.player_id for seat in seats}:
        raise Forbidden("only a player at the table may invite", code="not_seated")
    if table.status == "closed" or is_expired(table):
        raise Conflict("the table is closed", code="table_closed")
    if len(seats) >= len(SEATS):
        raise Conflict("both seats are taken", code="table_full")
    invitee_id = None
    if to is not None:
        invitee = await find_by_name(session=session, name=to)
        if invitee.id == inviter.id:
            raise InvalidInput("you cannot invite yourself", code="self")
        if not await is_friend(session=session, player_id=inviter.id, friend_id=invitee.id):
            raise Forbidden(f"{invitee.name} is not in your friend list", code="not_friend")
        ignore = await ignore_between_any(session=session, player_id=inviter.id,
                                          of=[invitee.id])
        if ignore == "ignored":
            raise Forbidden(f"{invitee.name} does not accept your invitations", code="ignored")
        if ignore == "ignoring":
            raise Forbidden(f"you ignore {invitee.name}", code="ignoring")
        invitee_id = invitee.id
    now = utcnow()
    invite = Invite(code=new_code(), table_id=table.id, inviter_id=inviter.id,
                    invitee_id=invitee_id, status="pending", created_at=now,
                    expires_at=now + timedelta(seconds=ttl_seconds))
    session.add(invite)
    await session.commit()
    return await _view(session, invite)


async def _by_code(session: AsyncSession, code: str, viewer: Player) -> Invite:
    invite = await session.scalar(select(Invite).where(Invite.code == code))
    # A direct invitation is private to its two players: not found for anyone else.
    if invite is None or (
        invite.invitee_id is not None and viewer.id not in (invite.invitee_id, invite.inviter_id)
    ):
        raise NotFound("no such invitation", code="invite_not_found")
    return invite


async def get_invite(*, session: AsyncSession, code: str, viewer: Player) -> InviteView:
    return await _view(session, await _by_code(session, code, viewer))


async def public_invite(*, session: AsyncSession, code: str) -> InviteView:
    """A link invitation for a visitor without an account yet (its landing page): the
    caller shows only who invites to what. A direct invitation stays private: not found."""
    invite = await session.scalar(select(Invite).where(Invite.code == code))
    if invite is None or invite.invitee_id is not None:
        raise NotFound("no such invitation", code="invite_not_found")
    return await _view(session, invite)


async def incoming_invites(*, session: AsyncSession, player: Player, page: int,
                           page_size: int) -> Page[InviteView]:
    """Pending, unexpired invitations addressed to ``player``, newest first; none from a
    player an ignore now stands between (sent before it: accepting would be refused)."""
    ignored = select(Ignore.player_id).where(
        ignore_stands_between(player.id, Invite.inviter_id)).exists()
    closed = select(DuelTable.id).where(DuelTable.id == Invite.table_id,
                                        DuelTable.status == "closed").exists()
    query = (select(Invite).where(Invite.invitee_id == player.id, Invite.status == "pending",
                                  Invite.expires_at > utcnow(), ~ignored, ~closed)
             .order_by(Invite.created_at.desc(), Invite.id.desc()))
    rows, total = await page_rows(session, query, page=page, page_size=page_size)
    return Page([await _view(session, invite) for (invite,) in rows], total, page, page_size)


def _check_pending(view: InviteView) -> None:
    if view.state == "expired":
        raise Conflict("the invitation has expired", code="invite_expired")
    if view.state != "pending":
        raise Conflict(f"the invitation was already {view.state}", code="invite_closed")


async def accept_invite(*, session: AsyncSession, code: str, player: Player) -> TableView:
    invite = await _by_code(session, code, player)
    view = await _view(session, invite)
    _check_pending(view)
    if invite.inviter_id == player.id:
        raise InvalidInput("you cannot accept your own invitation", code="self")
    # Marked before seating so both land in seat_player's single commit.
    invite.status = "accepted"
    invite.responded_at = utcnow()
    return await seat_player(session=session, table=view.table, player=player, invited=True)


async def decline_invite(*, session: AsyncSession, code: str, player: Player) -> InviteView:
    invite = await _by_code(session, code, player)
    if invite.invitee_id != player.id:
        raise Forbidden("only the invited player may decline", code="not_invitee")
    return await _close(session, invite, "declined")


async def cancel_invite(*, session: AsyncSession, code: str, player: Player) -> InviteView:
    invite = await _by_code(session, code, player)
    if invite.inviter_id != player.id:
        raise Forbidden("only the inviting player may cancel", code="not_inviter")
    return await _close(session, invite, "cancelled")


async def withdraw_invites(*, session: AsyncSession, table_id: int) -> list[InviteView]:
    """Cancel the pending invitations to a table its last player left (it is closed): they
    stayed in their invitees' lists, and an Accept was refused ``table_closed``."""
    pending = (await session.scalars(select(Invite).where(
        Invite.table_id == table_id, Invite.status == "pending"))).all()
    now = utcnow()
    for invite in pending:
        invite.status, invite.responded_at = "cancelled", now
    await session.commit()
    return [await _view(session, invite) for invite in pending]


async def _close(session: AsyncSession, invite: Invite, status: str) -> InviteView:
    """Answer a pending invitation with ``status``; refused once it is no longer pending."""
    view = await _view(session, invite)
    _check_pending(view)
    invite.status = status
    invite.responded_at = utcnow()
    await session.commit()
    return view


