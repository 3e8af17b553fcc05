"""What happened in one step of a game, as an ack, a watch or a solo step says it.

Cards go out by name only, and only those face up once the step is done (a moved run, a
flipped card, a dealt row); card ids, which follow the deal's layout order, never leave
the server (``app/rooms/frames.py`` makes these from the engine's events).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from app.wire.base import described


class StepEvent(msgspec.Struct, tag_field="kind", frozen=True, gc=False):
    """One event of a step; each subclass fixes its ``kind``."""


class Moved(StepEvent, tag="moved", frozen=True):
    """A run moved from one column to another (columns numbered from 0)."""

    src: Annotated[int, described("The column it left.")] = msgspec.field(name="from")
    dst: Annotated[int, described("The column it joined.")] = msgspec.field(name="to")
    cards: list[str]


class Flipped(StepEvent, tag="flipped", frozen=True):
    """A face-down card turned face up: by the player (``flip``) or, ``automatic``, as the
    rules turn it once uncovered."""

    col: int
    card: str
    automatic: bool


class Dealt(StepEvent, tag="dealt", frozen=True):
    """A row dealt from the stock, one card per column from the first."""

    cards: list[str]


class CompletedRun(StepEvent, tag="run_completed", frozen=True):
    """A run King to Ace of one suit left the column for the foundations."""

    col: int
    suit: str


class Won(StepEvent, tag="won", frozen=True):
    """The game is won."""


class Undone(StepEvent, tag="undone", frozen=True):
    """The last action was taken back."""


Event = Moved | Flipped | Dealt | CompletedRun | Won | Undone
