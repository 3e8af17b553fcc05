"""Live lobby and invites: what the table and invite services publish as things happen.

The REST services call these after their transaction commits; subscribers (players on
the lobby page, the invitee) receive the change at once through their event stream.
"""

from __future__ import annotations

from typing import Literal

from app.messaging import channels
from app.messaging.pubsub import PubSub
from app.rooms import frames
from app.wire.news import Invitation, LobbyTable

LobbyChange = Literal["table_created", "seat_taken", "table_closed", "table_updated"]


async def publish_table_change(
    *, pubsub: PubSub, change: LobbyChange, table: LobbyTable
) -> None:
    """A public table changed; ``table`` is its public summary (as the REST lobby lists it)."""
    await pubsub.publish(channels.LOBBY, frames.lobby(change, table))


async def publish_invite(*, pubsub: PubSub, invitee_id: int, invite: Invitation) -> None:
    """A direct invite: the invitee, if online, gets it the moment it is sent."""
    await pubsub.publish(channels.player(invitee_id), frames.invite(invite))


async def publish_invite_declined(*, pubsub: PubSub, invite: Invitation) -> None:
    """A direct invite declined: its sender, if online, is told (its ``status`` says so);
    their waiting table said "Invitation sent" until they gave up waiting."""
    await pubsub.publish(channels.player(invite.inviter_id), frames.invite(invite))


async def publish_invite_withdrawn(*, pubsub: PubSub, invite: Invitation) -> None:
    """A direct invite cancelled (its table closed): its invitee, if online, is told (its
    ``status`` says so) and their list of invitations drops it."""
    assert invite.invitee_id is not None  # a direct invitation's
    await pubsub.publish(channels.player(invite.invitee_id), frames.invite(invite))
