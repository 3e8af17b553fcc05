"""What every client message model shares: the base class, ids, seqs, the action form."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from app.ids import INT_COLUMN_MAX
from app.wire.game import PlayedAction

# Ids and seqs fit the database's INTEGER columns (app/ids.py): a larger number is a bad
# message, answered like any other, never a query that overflows (found by the fuzz tests).
MAX_ID = INT_COLUMN_MAX
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Seq = Annotated[int, Field(ge=1, le=MAX_ID)]


def action_schema() -> dict[str, Any]:
    """The JSON schema of an action, from the frames' own type (``PlayedAction``, whose
    form the rule book's ``action_from_json`` reads), its definitions inlined."""
    (union,), definitions = msgspec.json.schema_components([PlayedAction])

    def inlined(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return inlined(definitions[node["$ref"].rsplit("/", 1)[1]])
            return {key: inlined(value) for key, value in node.items()}
        return [inlined(value) for value in node] if isinstance(node, list) else node

    return {"anyOf": inlined(union["anyOf"]),
            "description": "An action in the rule book's JSON form. Read by the rule "
                           "book, not by this message's parser: any other object is "
                           "answered by a reject bad_action, with the seq unused."}


ActionJson = Annotated[dict[str, Any], WithJsonSchema(action_schema())]
"""An action as a client sends it: ``{"op": "move", "from": 3, "to": 7, "count": 2}``,
``{"op": "deal"}``, ``{"op": "flip", "col": 4}``, ``{"op": "undo"}``. Any JSON object
passes the message's parser: the rule book reads it (``action_from_json``), and the
core answers one it refuses with a ``reject`` ``bad_action`` and the rule book's words
(a typed union here would turn that into an ``error`` frame of the parser's words)."""


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Request(Message):
    """A client message: strict, so a number given as a string or a float is refused
    (``"seq": "1"``, ``"seq": 2.0``) instead of being converted and applied."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
