"""A built frame checked against its protocol model (app/api/protocol*.py)."""

from __future__ import annotations

from typing import Any

from app.api import protocol as p

NOT_NUMBERED = frozenset({"hint", "error", "pong", "welcome", "solo_hint"})
"""Answers to this connection only: they carry no event number ``n``."""


def assert_is_its_model(frame: dict[str, Any]) -> None:
    """The frame validates as its model and dumps back to itself: no default left out,
    nothing coerced (a numbered frame with the ``n`` its stream would give it)."""
    numbered = frame if frame["type"] in NOT_NUMBERED else {**frame, "n": 1}
    model = p.SERVER_ADAPTER.validate_python(numbered)
    assert model.model_dump(mode="json") == numbered
