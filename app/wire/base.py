"""What every frame shares: the tagged base, the event number ``n``, the parts' base.

A frame is immutable (``frozen``) and made in C (``msgspec``): an action's ack, watch and
progress are made on the server's hottest path, and a frame is handed to several streams
and sockets as it is. Fields are encoded in the order they are declared, ``type`` first.
Every part of a frame is typed too (``Part`` and its kin): no field is a free JSON object.
"""

from __future__ import annotations

from typing import Annotated

import msgspec


class Frame(msgspec.Struct, tag_field="type", frozen=True, gc=False):
    """A server frame; each subclass fixes its ``type`` (its tag)."""


class Part(msgspec.Struct, frozen=True, gc=False):
    """An object inside a frame (a progress line, a player's result...)."""


class Numbered(Frame, kw_only=True, frozen=True):
    """A frame of the player's event stream: ``n`` numbers it (the stream sets it, last
    in the frame), and a resume asks for what came after an ``n``."""

    n: Annotated[int | msgspec.UnsetType, msgspec.Meta(
        description="The event's number on the player's stream (always sent).")
    ] = msgspec.UNSET


class MatchFrame(Numbered, frozen=True):
    """A numbered frame about a duel match."""

    match_id: int


class SoloFrame(Numbered, frozen=True):
    """A numbered frame about one solo or daily game."""

    game_id: int


def numbered(frame: Numbered, n: int) -> Numbered:
    """The frame as a stream sends it: the same fields, numbered ``n`` (a copy: the one
    frame may go to several streams)."""
    return msgspec.structs.replace(frame, n=n)


def described(text: str) -> msgspec.Meta:
    """A field's description, for the protocol document."""
    return msgspec.Meta(description=text)
