"""A built frame checked against its protocol model (app/api/protocol*.py)."""

from __future__ import annotations

import json
from typing import Any

from app.api import protocol as p

NOT_NUMBERED = frozenset({"hint", "error", "pong", "welcome", "solo_hint"})
"""Answers to this connection only: they carry no event number ``n``."""


def assert_is_its_model(frame: dict[str, Any]) -> None:
    """The frame validates as its model and dumps back to itself: no default left out,
    nothing coerced (a numbered frame with the ``n`` its stream would give it)."""
    numbered = frame if frame["type"] in NOT_NUMBERED else {**frame, "n": 1}
    model = p.SERVER_ADAPTER.validate_python(numbered)
    dumped = model.model_dump(mode="json")
    assert dumped == numbered, differences(dumped, numbered, frame["type"])


def differences(model: Any, built: Any, where: str) -> list[str]:
    """Where a built frame and its model's dump part (paths, both values)."""
    if isinstance(model, dict) and isinstance(built, dict):
        return [line for key in sorted(set(model) | set(built))
                for line in differences(model.get(key, "<missing>"),
                                        built.get(key, "<missing>"), f"{where}.{key}")]
    if isinstance(model, list) and isinstance(built, list) and len(model) == len(built):
        return [line for i, (a, b) in enumerate(zip(model, built, strict=True))
                for line in differences(a, b, f"{where}[{i}]")]
    return [] if model == built else [f"{where}: model {model!r} built {built!r}"]


def checked_json(frame: dict[str, Any]) -> str:
    """The text a test's stand-in server sends: only a frame the real server could send
    (its protocol model's), so a fake cannot drift from the protocol unseen."""
    assert_is_its_model(frame)
    return json.dumps(frame)
