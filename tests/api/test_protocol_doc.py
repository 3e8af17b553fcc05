"""docs/protocol.md names every error and reject code the WebSocket can send (and no
other), every frame type, and every limit it applies with the values the code uses (the
schemas themselves: tests/api/test_protocol.py)."""

import re
from pathlib import Path
from typing import Any

import pytest

from app.api import limits, protocol_docs, ws
from app.api import protocol as p
from app.engine.errors import IllegalAction
from app.messaging.player_streams import BUFFER_EVENTS
from app.rooms.errors import RoomError
from app.runtime.connections import TooManyConnections
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


def prose() -> str:
    """The document without its generated schemas (which name every type anyway)."""
    return DOC.split("<!-- schemas:begin", 1)[0]


FRAME_WORDS = {"error", "reject", "hint"}  # frame types the Errors section names too


def test_the_errors_section_names_no_code_the_server_never_sends() -> None:
    sentence = errors_section().split("Codes:", 1)[1].split("The codes of a", 1)[0]
    named = set(re.findall(r"`([a-z_]+)`", sentence)) - FRAME_WORDS
    assert named, "the Errors section lists its codes after 'Codes:'"
    assert named <= ws_error_codes(), named - ws_error_codes()


def reject_codes() -> set[str]:
    """The rule book's codes (one exception class each), the duel core's own and the seq
    rule's (app/rooms/seat_rule.py, shared with solo play)."""
    codes = {cls.code for cls in subclasses(IllegalAction)}
    for module in ("duel_core", "duel", "acting", "seat_rule"):
        source = (ROOT / "app" / "rooms" / f"{module}.py").read_text()
        codes.update(re.findall(r'reject\((?:[^()]|\([^()]*\))*?"([a-z_]+)"', source))
        codes.update(re.findall(r'return "([a-z_]+)", f?"', source))
        codes.update(re.findall(r'Refuse\("([a-z_]+)"', source))
    codes.add("bad_action")
    return codes


def test_every_reject_code_is_in_the_sequence_numbers_section() -> None:
    section = DOC.split("### Sequence numbers", 1)[1].split("\n### ", 1)[0]
    codes = reject_codes()
    assert {"bad_column", "undo_barrier", "seq_taken", "stale_seq", "bad_seq",
            "not_stored"} <= codes
    missing = {code for code in codes if f"`{code}`" not in section}
    assert not missing, f"docs/protocol.md, Sequence numbers, does not name {missing}"


def frame_types(schema: dict[str, Any]) -> set[str]:
    definitions = schema["$defs"].values()
    return {d["properties"]["type"]["const"] for d in definitions
            if "const" in d.get("properties", {}).get("type", {})}


@pytest.mark.parametrize("direction", ["client", "server"])
def test_every_frame_type_is_explained_in_the_prose(direction: str) -> None:
    types = frame_types(protocol_docs.schemas()[direction])
    assert {"hello", "resume", "resume_result", "snapshot"} & types
    missing = {kind for kind in types if f'"{kind}"' not in prose()
               and f"`{kind}`" not in prose()}
    assert not missing, f"docs/protocol.md explains no frame {missing} outside the schemas"


def test_the_other_numbers_of_the_protocol_are_the_codes() -> None:
    text = " ".join(prose().split())
    assert f"within **{ws.HELLO_TIMEOUT_SECONDS:g}** seconds" in text
    assert f"after {limits.FrameGuard.max_strikes} refusals in a row" in text
    assert f"(the last {BUFFER_EVENTS})" in text
    for code in (ws.CLOSE_PROTOCOL, ws.CLOSE_POLICY, ws.CLOSE_POLICY_VIOLATION):
        assert str(code) in text, code
