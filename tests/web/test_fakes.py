"""The stand-in servers of the browser tests send only what the real server could send:
each frame is checked against its type in app/wire/ (tests/support/frames.checked_json)."""

import json

import msgspec
import pytest

from app.rewards.solo import SoloOptions, solo_start
from app.wire.duel import Progress, ProgressEvent
from app.wire.frames import decode
from app.wire.session import Pong
from tests.support.frames import checked_json
from tests.web.fake import MATCH_ID, FakeServer
from tests.web.fake_solo import FakeSoloServer


def test_a_frame_as_the_server_builds_it_passes() -> None:
    assert json.loads(checked_json(Pong())) == {"type": "pong"}
    snapshot = FakeServer().snapshot()
    assert decode(checked_json(snapshot)) == snapshot
    solo = FakeSoloServer()
    solo_snapshot = solo.snapshot(solo.add("solo", solo_start(424242, SoloOptions(suits=1))))
    assert decode(checked_json(solo_snapshot)) == solo_snapshot


def test_a_frame_with_a_value_outside_its_type_is_refused() -> None:
    # A struct is not checked when it is made: only its JSON read back tells.
    snapshot = msgspec.structs.replace(FakeServer().snapshot(), status="paused")
    with pytest.raises(AssertionError, match=r"Snapshot: .*\$\.status"):
        checked_json(snapshot)


def test_a_frame_missing_what_the_server_always_sends_cannot_be_made() -> None:
    progress = FakeServer().opponent()
    del progress["online"]
    with pytest.raises(TypeError, match="online"):
        ProgressEvent(MATCH_ID, Progress(**progress))
