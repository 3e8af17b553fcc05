"""News on a player's event stream that is not a game's step: the lobby, invitations,
friends, presence, what was said at a table, badges, and ``resync``."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

import msgspec

from app.wire.base import MatchFrame, Numbered, Part, described

SayCode = Literal["good_luck", "well_played", "rematch"]
"""The canned messages of a duel table; the client says them in the player's language."""
Suits = Literal[1, 2, 4]
InviteStatus = Literal["pending", "accepted", "declined", "cancelled", "expired"]


class TableSeat(Part, frozen=True):
    seat: int
    player_id: int
    name: str
    wants_new_game: bool


class LobbyTable(Part, frozen=True):
    """A table as the REST lobby lists it (``TableOut``, docs/api.md): the same fields,
    in the same order (``tests/api/test_live_news.py``)."""

    id: int
    owner_id: int
    owner_name: str
    preset: str
    suits: Suits
    time_limit_seconds: int
    level: str
    public: bool
    rated: bool
    difficulty: str
    daily_date: Annotated[date | None, described(
        "Set for a daily-duel table: its match deals that day's daily deal.")]
    quick: Annotated[bool, described("A quick-duel table: the quick matcher fills it.")]
    status: str
    created_at: datetime
    expires_at: datetime | None
    seats: list[TableSeat]
    match_id: int | None
    match_status: str | None


class InvitedGame(Part, frozen=True):
    """The game an invitation is to (what a list of invitations shows)."""

    preset: str
    suits: Suits
    time_limit_seconds: int
    rated: bool


class Invitation(Part, frozen=True):
    """An invitation as the REST API gives it (``InviteOut``, docs/api.md)."""

    code: str
    table_id: int
    inviter_id: int
    inviter_name: str
    invitee_id: int | None
    invitee_name: str | None
    kind: Literal["direct", "link"]
    status: InviteStatus
    created_at: datetime
    expires_at: datetime
    table: LobbyTable | None
    game: InvitedGame


class Lobby(Numbered, tag="lobby", frozen=True):
    change: Literal["table_created", "seat_taken", "table_closed", "table_updated"]
    table: LobbyTable


class InviteEvent(Numbered, tag="invite", frozen=True):
    """A direct invitation: to its invitee when it is sent (``status`` pending) and when
    its table closes, its last player gone (``status`` cancelled), and to its sender when
    the invitee declines it (``status`` declined)."""

    invite: Invitation


class QuickLooking(Numbered, tag="quick_looking", frozen=True):
    """To lobby subscribers whenever the number of players waiting for a quick duel may
    have changed (a request, a pairing, one given up): that number, now."""

    looking: Annotated[int, msgspec.Meta(ge=0)]


class Presence(Numbered, tag="presence", frozen=True):
    player_id: int
    online: bool


class Resync(Numbered, tag="resync", frozen=True):
    """Events meant for this stream were lost (Redis was away while they were sent): what
    the client shows may be stale. It sends again what it follows (``open_game``,
    ``spectate``, ``subscribe_lobby``…): each answer brings a fresh snapshot."""

    reason: Literal["events_lost"]


FriendChange = Literal["requested", "accepted", "declined", "cancelled", "removed"]
GameKind = Literal["solo", "daily", "duel"]


class Friend(Numbered, tag="friend", frozen=True):
    """Friend-request news, to one player, about another: ``requested`` (asks me),
    ``accepted`` (my request), ``declined`` (my request), ``cancelled`` (their request to
    me withdrawn), ``removed`` (no longer my friend: both sides)."""

    change: FriendChange
    player_id: int
    name: str


class Said(MatchFrame, tag="said", frozen=True):
    """A canned message said at a duel table (``say``), to its players: who and which code."""

    player_id: int
    code: SayCode


class EarnedBadge(Part, frozen=True):
    code: str
    title: str
    description: str
    earned_at: str


class BadgeGame(Part, frozen=True):
    kind: GameKind
    id: int


class BadgeEarned(Numbered, tag="badge", frozen=True):
    """A badge just earned, after the frame that ended the game that earned it."""

    badge: EarnedBadge
    game: BadgeGame
