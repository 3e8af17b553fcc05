"""Tell the live layer what the REST routes just committed (lobby changes, invites).

One call per route, after the service has committed. Public tables go to lobby
subscribers; every change of a table also reaches the players seated at it (e.g. the
owner learns at once that the seat was taken and which match to open). One change is no
route's: a table left during its match waits in the lobby again once the match is
settled, wherever that happens (a last action, a clock, the sweeper); a listener on the
settlement tells the lobby (:func:`announce_reopened_tables`).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.api.schemas import InviteOut, TableOut
from app.db.models import Player
from app.messaging import channels
from app.rooms import frames
from app.rooms.layer import Rooms
from app.rooms.live_lobby import (
    LobbyChange,
    publish_invite,
    publish_invite_declined,
    publish_invite_withdrawn,
    publish_table_change,
)
from app.services import tables
from app.services.settled import MatchSettled, match_settled
from app.wire.news import FriendChange, Invitation, LobbyTable


def _rooms(request: Request) -> Rooms | None:
    return getattr(request.app.state, "rooms", None)


async def table_changed(request: Request, change: LobbyChange, table: TableOut) -> None:
    rooms = _rooms(request)
    if rooms is not None:
        await _tell(rooms, change, table)


def lobby_table(table: TableOut) -> LobbyTable:
    """A table as a ``lobby`` frame says it: its REST answer's fields, typed."""
    return msgspec.convert(table, LobbyTable, from_attributes=True)


def invitation(invite: InviteOut) -> Invitation:
    """An invitation as an ``invite`` frame says it: its REST answer's fields, typed."""
    return msgspec.convert(invite, Invitation, from_attributes=True)


async def _tell(rooms: Rooms, change: LobbyChange, table: TableOut) -> None:
    summary = lobby_table(table)
    if table.public:
        await publish_table_change(pubsub=rooms.pubsub, change=change, table=summary)
    for seat in table.seats:
        await rooms.pubsub.publish(channels.player(seat.player_id),
                                   frames.lobby(change, summary))


async def table_left(request: Request, table: TableOut) -> None:
    await table_changed(request, "table_closed" if table.status == "closed" else
                        "table_updated", table)


async def invite_sent(request: Request, invite: InviteOut) -> None:
    rooms = _rooms(request)
    if rooms is not None and invite.invitee_id is not None:
        await publish_invite(pubsub=rooms.pubsub, invitee_id=invite.invitee_id,
                             invite=invitation(invite))


async def invite_declined(request: Request, invite: InviteOut) -> None:
    rooms = _rooms(request)
    if rooms is not None and invite.kind == "direct":
        await publish_invite_declined(pubsub=rooms.pubsub,
                                      invite=invitation(invite))


async def invite_withdrawn(request: Request, invite: InviteOut) -> None:
    rooms = _rooms(request)
    if rooms is not None and invite.kind == "direct":
        await publish_invite_withdrawn(pubsub=rooms.pubsub,
                                       invite=invitation(invite))


def announce_reopened_tables(
    *, rooms: Rooms, sessions: async_sessionmaker[AsyncSession]
) -> Callable[[], None]:
    """From now on, a table reopened by a settlement is announced as ``table_updated``
    (after the commit: at most once, as the lobby's other news). Returns the unsubscriber,
    for the live layer's shutdown."""

    async def reopened(event: MatchSettled) -> None:
        async with sessions() as session:
            view = await tables.reopened_table(session=session, match_id=event.match_id)
        if view is not None:
            await _tell(rooms, "table_updated", TableOut.of(view))

    return match_settled.subscribe_after_commit(reopened)


async def friend_news(request: Request, *, to: int, change: FriendChange, about: Player) -> None:
    """Friend-request news for player ``to``, about ``about`` (a ``friend`` frame)."""
    rooms = _rooms(request)
    if rooms is not None:
        await rooms.pubsub.publish(channels.player(to), frames.friend(change, about.id,
                                                                      about.name))
