"""Actions: small immutable values with a JSON form and a text form that round-trip.

Text forms: ``m3>7`` (move one card from column 3 to 7), ``m3>7x2`` (two cards),
``d`` (deal), ``f4`` (flip column 4), ``u`` (undo).
"""

import re
from dataclasses import dataclass
from typing import Any


class ActionFormatError(ValueError):
    """Text or JSON that does not spell an action (unknown op, missing or non-integer field)."""


@dataclass(frozen=True, slots=True)
class Move:
    src: int
    dst: int
    count: int = 1

    def text(self) -> str:
        suffix = "" if self.count == 1 else f"x{self.count}"
        return f"m{self.src}>{self.dst}{suffix}"

    def to_json(self) -> dict[str, Any]:
        return {"op": "move", "from": self.src, "to": self.dst, "count": self.count}


@dataclass(frozen=True, slots=True)
class Deal:
    def text(self) -> str:
        return "d"

    def to_json(self) -> dict[str, Any]:
        return {"op": "deal"}


@dataclass(frozen=True, slots=True)
class Flip:
    col: int

    def text(self) -> str:
        return f"f{self.col}"

    def to_json(self) -> dict[str, Any]:
        return {"op": "flip", "col": self.col}


@dataclass(frozen=True, slots=True)
class Undo:
    def text(self) -> str:
        return "u"

    def to_json(self) -> dict[str, Any]:
        return {"op": "undo"}


Action = Move | Deal | Flip | Undo

_MOVE_TEXT = re.compile(r"m(-?\d{1,9})>(-?\d{1,9})(?:x(-?\d{1,9}))?")
_FLIP_TEXT = re.compile(r"f(-?\d{1,9})")


def parse_action(text: str) -> Action:
    if text == "d":
        return Deal()
    if text == "u":
        return Undo()
    if match := _FLIP_TEXT.fullmatch(text):
        return Flip(int(match[1]))
    if match := _MOVE_TEXT.fullmatch(text):
        count = 1 if match[3] is None else int(match[3])
        return Move(int(match[1]), int(match[2]), count)
    raise ActionFormatError(f"not an action: {text!r} (m3>7, m3>7x2, d, f4 or u)")


def _integer_field(data: dict[str, Any], name: str, op: str) -> int:
    if name not in data:
        raise ActionFormatError(f"'{op}' needs the integer field '{name}'")
    value = data[name]
    if type(value) is not int:
        raise ActionFormatError(f"'{op}' field '{name}' must be an integer, not {value!r}")
    return value


_FIELDS = {"move": {"op", "from", "to", "count"}, "deal": {"op"}, "flip": {"op", "col"},
           "undo": {"op"}}


def action_from_json(data: object) -> Action:
    if not isinstance(data, dict):
        raise ActionFormatError(f"an action must be an object with 'op', not {data!r}")
    op = data.get("op")
    if not isinstance(op, str) or op not in _FIELDS:
        raise ActionFormatError(f"unknown op {op!r} (move, deal, flip or undo)")
    allowed = _FIELDS[op]
    if not allowed.issuperset(data):  # no set built for a well-formed action (every one)
        extra = sorted(map(str, set(data) - allowed))
        raise ActionFormatError(f"'{op}' has unknown field(s): {', '.join(extra)}")
    if op == "move":
        return Move(
            _integer_field(data, "from", op),
            _integer_field(data, "to", op),
            _integer_field(data, "count", op),
        )
    if op == "flip":
        return Flip(_integer_field(data, "col", op))
    return Deal() if op == "deal" else Undo()
