"""The social frames of the WebSocket protocol (issue 25): canned messages at a duel table
and friend-request news; part of the one protocol of app/api/protocol.py, which unions
them into its client and server messages (kept apart to keep that module short)."""

from __future__ import annotations

from typing import Literal

from app.api.protocol_base import Id, MatchFrame, Numbered, Request

SayCode = Literal["good_luck", "well_played", "rematch"]
"""The canned messages of a duel table; the client says them in the player's language."""


class Say(Request):
    """A canned message to the other player of a match (mine): a fixed code, never free
    text. Answered by ``said`` to the players of the match (not to spectators), left out
    for one whom an ignore separates from me; refused as ``rate_limited`` beyond the rate
    (docs/protocol.md, Limits)."""

    type: Literal["say"]
    match_id: Id
    code: SayCode


class Friend(Numbered):
    """Friend-request news (issue 25), to one player, about another: ``requested`` (asks
    me), ``accepted`` (my request), ``declined`` (my request), ``cancelled`` (their request
    to me withdrawn), ``removed`` (no longer my friend: both sides)."""

    type: Literal["friend"] = "friend"
    change: Literal["requested", "accepted", "declined", "cancelled", "removed"]
    player_id: int
    name: str


class Said(MatchFrame):
    """A canned message said at a duel table (``say``), to its players: who and which code."""

    type: Literal["said"] = "said"
    player_id: int
    code: SayCode
