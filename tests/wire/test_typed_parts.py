"""Every part of every frame is typed (issue 22, "one owner of the wire format"): no field
of a struct of app/wire/ is a free JSON object (``dict[str, Any]``, the old ``Json``),
an ``Any`` or a raw value, however deep; so the protocol document, made from these
types, describes every field a client reads."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

import app.wire
from app.wire.base import Part
from app.wire.frames import ChannelMessage

UNTYPED = (mi.AnyType, mi.DictType, mi.RawType, mi.CustomType)
"""What says nothing of its contents: a free object, anything, raw JSON, an unknown class."""


def wire_structs() -> list[type[msgspec.Struct]]:
    """Every struct class defined in a module of app/wire/."""
    found: dict[str, type[msgspec.Struct]] = {}
    for module_info in pkgutil.iter_modules(app.wire.__path__, "app.wire."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, msgspec.Struct)
                    and value.__module__ == module.__name__):
                found[f"{module.__name__}.{name}"] = value
    return [found[name] for name in sorted(found)]


def untyped(node: mi.Type, path: str, seen: set[type]) -> Iterator[str]:
    """The paths under ``node`` whose type says nothing of its contents."""
    if isinstance(node, UNTYPED):
        yield f"{path}: {type(node).__name__}"
    elif isinstance(node, mi.StructType):
        if node.cls in seen:
            return
        seen.add(node.cls)
        for field in node.fields:
            yield from untyped(field.type, f"{node.cls.__name__}.{field.name}", seen)
    elif isinstance(node, mi.UnionType):
        for member in node.types:
            yield from untyped(member, path, seen)
    elif isinstance(node, mi.CollectionType):
        yield from untyped(node.item_type, f"{path}[]", seen)
    elif isinstance(node, mi.TupleType):
        for index, item in enumerate(node.item_types):
            yield from untyped(item, f"{path}[{index}]", seen)
    elif isinstance(node, mi.Metadata):
        yield from untyped(node.type, path, seen)


def untyped_fields(kind: Any) -> list[str]:
    return sorted(set(untyped(mi.type_info(kind), getattr(kind, "__name__", "?"), set())))


def test_there_are_structs_to_check() -> None:
    names = {kind.__name__ for kind in wire_structs()}
    assert {"Snapshot", "Ack", "GameView", "GameRules", "LobbyTable", "Invitation",
            "GameRecord", "RevealedDeal", "MoveAction"} <= names
    assert len(names) >= 60


@pytest.mark.parametrize("kind", wire_structs(), ids=lambda kind: kind.__name__)
def test_no_field_of_a_wire_struct_is_an_untyped_object(kind: type[msgspec.Struct]) -> None:
    assert untyped_fields(kind) == []


def test_every_channel_message_is_typed_all_the_way_down() -> None:
    assert untyped_fields(ChannelMessage) == []


class Inner(Part, frozen=True):
    payload: dict[str, Any]


class Outer(Part, frozen=True):
    parts: list[Inner | None]
    anything: Any
    raw: msgspec.Raw


def test_the_check_finds_a_free_object_however_deep() -> None:
    assert untyped_fields(Outer) == ["Inner.payload: DictType", "Outer.anything: AnyType",
                                     "Outer.raw: RawType"]
