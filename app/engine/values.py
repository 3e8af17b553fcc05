"""The base of the engine's and scoring's immutable values: structs the collector never walks.

A server holds every live game's undo and scoring history for the game's whole life.
As ``msgspec`` structs with ``gc=False`` these values are made in C (a few times faster
than a frozen dataclass) and are not tracked by the cyclic garbage collector, so a full
collection no longer walks every step of every game. That is safe because a value can
only refer to values made before it: no cycle can pass through one, and reference
counting frees them all.

A link from a value to an earlier value of its own kind (the undo stack's previous
position) goes through a tuple: tuples are freed by CPython's "trashcan", which unwinds
long chains iteratively, where a chain of bare untracked structs would be freed by one
C call per link and overflow the C stack after a few hundred thousand steps.

Assigning to a field raises :class:`dataclasses.FrozenInstanceError`, as it did when
these were frozen dataclasses (a frozen struct would raise a plain ``AttributeError``).
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, NoReturn

import msgspec


class Value(msgspec.Struct, gc=False):
    """An immutable value: equal and hashed by its fields, untracked by the collector."""

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash(msgspec.structs.astuple(self))
