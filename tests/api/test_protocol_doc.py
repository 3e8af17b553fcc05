"""docs/protocol.md names every error code the WebSocket can send and every limit it
applies, with the values the code uses (the schemas: tests/api/test_protocol.py)."""

import re
from pathlib import Path

import pytest

from app.api import limits
from app.api import protocol as p
from app.ops.connections import TooManyConnections
from app.rooms.errors import RoomError
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()
SOURCES = [ROOT / "app" / "api" / "ws.py", ROOT / "app" / "api" / "protocol.py"]
LITERAL_CODE = re.compile(
    r'(?:ProtocolError|_error_text|frames\.error)\(\s*"([a-z_]+)"')


def subclasses(base: type) -> set[type]:
    found = set(base.__subclasses__())
    for cls in list(found):
        found |= subclasses(cls)
    return found


def ws_error_codes() -> set[str]:
    codes = {cls.code for cls in subclasses(RoomError) | subclasses(limits.LimitExceeded)}
    codes.add(TooManyConnections.code)
    for frame in ("{", '{"type": "nothing"}'):  # the parser's own codes, by asking it
        with pytest.raises(p.ProtocolError) as refused:
            p.parse_client_message(frame)
        codes.add(refused.value.code)
    for source in SOURCES:
        codes.update(LITERAL_CODE.findall(source.read_text()))
    return codes


def errors_section() -> str:
    return DOC.split("## Errors", 1)[1].split("\n## ", 1)[0]


def test_there_are_codes_to_check() -> None:
    assert {"bad_json", "frame_too_deep", "rate_limited", "not_seated", "internal",
            "hello_first", "too_many_connections"} <= ws_error_codes()


@pytest.mark.parametrize("code", sorted(ws_error_codes()))
def test_every_error_code_is_in_the_errors_section(code: str) -> None:
    assert f"`{code}`" in errors_section()


def test_the_limits_are_documented_with_their_values() -> None:
    settings = Settings()
    section = DOC.split("## Limits", 1)[1].split("\n## ", 1)[0]
    numbers = {int(n.replace(" ", "")) for n in re.findall(r"\*\*(\d[\d ]*)\*\*", section)}
    assert {settings.ws_max_frame_bytes, p.MAX_FRAME_BYTES, settings.ws_max_json_depth,
            int(settings.ws_actions_per_second), settings.ws_action_burst,
            settings.ws_max_connections_per_player} <= numbers
    assert "rules.md" in DOC or "rule book" in DOC.lower()
