"""A connection's own frames: its welcome, a resume's answer, errors and pongs.

None of them is numbered: they answer this connection only, outside the event stream.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from app.wire.base import Frame

PROTOCOL_VERSION = 1


# What a welcome and a resume's answer both say of the stream.
Resumed = Annotated[bool, msgspec.Meta(
    description="True when the missed events follow this frame.")]
LastEvent = Annotated[int, msgspec.Meta(
    description="The newest event number on the stream so far.")]


class Welcome(Frame, tag="welcome", frozen=True):
    v: int
    player_id: int
    stream: Annotated[str, msgspec.Meta(
        description="Identifies this event stream; give it back to resume.")]
    last_event: LastEvent
    resumed: Resumed


class ResumeResult(Frame, tag="resume_result", frozen=True):
    """The answer to ``resume``, always, before anything else it causes: ``resumed`` true,
    the missed events follow; false (refused: another stream, or events no longer kept),
    the fresh snapshots of the opened games in unfinished matches follow instead."""

    resumed: Resumed
    stream: Annotated[str, msgspec.Meta(
        description="This connection's stream: give it back next time.")]
    last_event: LastEvent


class Error(Frame, tag="error", frozen=True):
    """A frame the server could not accept; nothing was changed. Not numbered."""

    code: str
    message: str


class Pong(Frame, tag="pong", frozen=True):
    """The answer to ``ping``."""
