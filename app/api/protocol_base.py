"""What every WebSocket frame model shares: the base class, ids, seqs, the action form."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from app.ids import INT_COLUMN_MAX

ActionJson = dict[str, Any]
"""An action in the rule book's JSON form: {"op": "move", "from": 3, "to": 7, "count": 2},
{"op": "deal"}, {"op": "flip", "col": 4}, {"op": "undo"}."""


# Ids and seqs fit the database's INTEGER columns (app/ids.py): a larger number is a bad
# message, answered like any other, never a query that overflows (found by the fuzz tests).
MAX_ID = INT_COLUMN_MAX
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Seq = Annotated[int, Field(ge=1, le=MAX_ID)]


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Request(Message):
    """A client message: strict, so a number given as a string or a float is refused
    (``"seq": "1"``, ``"seq": 2.0``) instead of being converted and applied."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Numbered(Message):
    """A server frame of the player's event stream: ``n`` numbers it, and a resume asks
    for what came after an ``n``. Each subclass fixes ``type`` to its own constant."""

    type: str
    n: int


class MatchFrame(Numbered):
    """A numbered frame about a duel match."""

    match_id: int


class SoloFrame(Numbered):
    """A numbered frame about one solo or daily game."""

    game_id: int



class Refusal(Message):
    """Why an action (numbered ``seq``) was refused; it changed nothing. Each refusal frame
    adds where its game stands, to resume from."""

    seq: int
    code: str
    message: str


class Advice(Message):
    """A hint's answer, in a duel or a solo game alike."""

    action: ActionJson | None = Field(description="None when no action helps.")
    reason: str = Field(description="Why, in a few words (no card names).")
