"""Every server frame in one tagged union, and the one way a frame becomes JSON and back.

``ServerFrame`` is what a client may receive (the protocol document is made from it);
``ChannelMessage`` adds the two messages that only travel between processes on a channel
(``Echo``, ``Gap``): a player's stream reads a channel's message back with
``from_channel``, typed, whether it came from this process or through Redis.
"""

from __future__ import annotations

from typing import Any

import msgspec

from app.wire.base import Frame
from app.wire.duel import (
    Ack,
    GameOver,
    Hint,
    MatchResult,
    ProgressEvent,
    Reject,
    Replay,
    Snapshot,
    WatchEvent,
)
from app.wire.news import (
    BadgeEarned,
    Friend,
    InviteEvent,
    Lobby,
    Presence,
    QuickLooking,
    Resync,
    Said,
)
from app.wire.session import Error, Pong, ResumeResult, Welcome
from app.wire.solo import SoloAck, SoloAssist, SoloHint, SoloOver, SoloReject, SoloSnapshot

ServerFrame = (
    Welcome | ResumeResult | Snapshot | Ack | Reject | ProgressEvent | WatchEvent | GameOver
    | MatchResult | Replay | Lobby | InviteEvent | QuickLooking | Presence | Friend | Said
    | Resync | Hint | Error | Pong | SoloSnapshot | SoloAck | SoloReject | SoloAssist
    | SoloHint | SoloOver | BadgeEarned
)


class Echo(Frame, tag="echo", frozen=True):
    """A player's ack, published on their channel for their tabs on other processes;
    ``from_stream``: the stream that was answered (it skips its own echo). Never sent."""

    ack: Ack
    from_stream: str


class Gap(Frame, tag="gap", frozen=True):
    """Put on a channel that lost messages while Redis was away; a stream that reads it
    tells its client to resync. Never sent as it is."""


ChannelMessage = ServerFrame | Echo | Gap


_encoder = msgspec.json.Encoder()
_server = msgspec.json.Decoder(ServerFrame)
_channel = msgspec.json.Decoder(ChannelMessage)


encode = _encoder.encode
"""A frame (or a list of them) as UTF-8 JSON: the bytes sent."""


def decode(data: bytes | str) -> ServerFrame:
    """A server frame read from its JSON, checked against its type
    (``msgspec.ValidationError`` otherwise)."""
    return _server.decode(data)


def read_channel(data: bytes | str) -> Frame:
    """A channel's message read from its JSON as the typed frame it is
    (``msgspec.ValidationError`` otherwise): what came through Redis."""
    return _channel.decode(data)


def from_channel(message: Frame | Any) -> Frame:
    """A channel's message as the typed frame it is: one made by this process (or read
    from Redis by ``read_channel``) is passed as it is; a JSON object is converted."""
    if isinstance(message, Frame):
        return message
    if isinstance(message, bytes | str):
        return read_channel(message)
    return msgspec.convert(message, ChannelMessage)  # type: ignore[no-any-return]


def checked(frame: Frame) -> bytes:
    """The frame's JSON, refused (``msgspec.ValidationError``) unless it reads back as the
    same frame: every field of its declared type and literal values (the test suite
    checks every frame it sends this way)."""
    data = encode(frame)
    if decode(data) != frame:
        raise msgspec.ValidationError(f"a {type(frame).__name__} does not read back as itself")
    return data
