"""What every client message model shares: the base class, ids, seqs, the action form."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.ids import INT_COLUMN_MAX
from app.wire.base import ActionJson as ActionJson

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
