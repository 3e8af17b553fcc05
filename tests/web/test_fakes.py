"""The stand-in servers of the browser tests send only what the real server could send:
each frame is checked against its protocol model (tests/support/frames.checked_json)."""

import json

import pytest

from tests.support.frames import checked_json
from tests.web.fake import FakeServer


def test_a_frame_as_the_server_builds_it_passes() -> None:
    assert json.loads(checked_json({"type": "pong"})) == {"type": "pong"}
    snapshot = FakeServer().snapshot()
    assert json.loads(checked_json(snapshot)) == snapshot


def test_a_frame_missing_what_the_server_always_sends_is_refused() -> None:
    opponent = FakeServer().opponent()
    del opponent["start_deadline"]
    snapshot = {**FakeServer().snapshot(), "opponent": opponent}
    with pytest.raises(AssertionError, match=r"snapshot\.opponent\.start_deadline"):
        checked_json(snapshot)
