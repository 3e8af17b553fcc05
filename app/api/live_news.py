"""Tell the live layer what the REST routes just committed (lobby changes, invites).

One call per route, after the service has committed. Public tables go to lobby
subscribers; every change of a table also reaches the players seated at it (e.g. the
owner learns at once that the seat was taken and which match to open).
"""

from __future__ import annotations

from fastapi import Request

from app.api.schemas import InviteOut, TableOut
from app.rooms import channels, frames
from app.rooms.live_lobby import LobbyChange, publish_invite, publish_table_change
from app.rooms.runtime import Rooms


def _rooms(request: Request) -> Rooms | None:
    return getattr(request.app.state, "rooms", None)


async def table_changed(request: Request, change: LobbyChange, table: TableOut) -> None:
    rooms = _rooms(request)
    if rooms is None:
        return
    summary = table.model_dump(mode="json")
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
                             invite=invite.model_dump(mode="json"))
