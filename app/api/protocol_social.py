"""The social message of the WebSocket protocol: a canned message said at a duel table
(answered by ``said``, app/wire/news.py); part of the client messages of
app/api/protocol.py (kept apart to keep that module short)."""

from __future__ import annotations

from typing import Literal

from app.api.protocol_base import Id, Request
from app.wire.news import SayCode


class Say(Request):
    """A canned message to the other player of a match (mine): a fixed code, never free
    text. Answered by ``said`` to the players of the match (not to spectators), left out
    for one whom an ignore separates from me; refused as ``rate_limited`` beyond the rate
    (docs/protocol.md, Limits)."""

    type: Literal["say"]
    match_id: Id
    code: SayCode
