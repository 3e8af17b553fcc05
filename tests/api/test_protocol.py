"""The protocol: client parsing, server frames, and the generated document."""

import json
from typing import Any

import msgspec
import pytest

from app.api import protocol_docs, ws
from app.api.protocol import (
    MAX_FRAME_BYTES,
    Act,
    Hello,
    ProtocolError,
    parse_client_message,
)
from app.messaging.pubsub import MemoryPubSub
from app.rooms.duel import DuelService
from app.rooms.store import MemoryStore, StoredGame, StoredMatch
from app.wire.base import numbered
from app.wire.duel import Hint
from app.wire.frames import decode, encode
from app.wire.session import Pong
from tests.support.duel_layouts import RULES, WINNING_LINE, near_finished_layout
from tests.support.frames import an_ack, kind


def test_client_messages_parse_by_type() -> None:
    hello = parse_client_message('{"type": "hello", "v": 1, "token": "t", "last_event": 4,'
                                 ' "stream": "s"}')
    assert isinstance(hello, Hello) and hello.last_event == 4
    action = parse_client_message(json.dumps(
        {"type": "action", "match_id": 3, "seq": 2, "action": {"op": "deal"}}))
    assert isinstance(action, Act) and action.action == {"op": "deal"}


@pytest.mark.parametrize(("frame", "code"), [
    ("{", "bad_json"),
    ('{"type": "action", "match_id": 3, "seq": 0, "action": {}}', "bad_message"),
    ('{"type": "hello", "v": 1, "surprise": true}', "bad_message"),
    ('{"no_type": 1}', "bad_message"),
    # Strict: a seq or an id as a string or a float is not a number of the protocol.
    ('{"type": "action", "match_id": 3, "seq": "1", "action": {"op": "deal"}}', "bad_message"),
    ('{"type": "action", "match_id": 3, "seq": 2.0, "action": {"op": "deal"}}', "bad_message"),
    ('{"type": "finish", "match_id": "3", "seq": 1}', "bad_message"),
    ('{"type": "open_game", "match_id": true}', "bad_message"),
    ('{"type": "hello", "v": "1"}', "bad_message"),
    (b"{}", "binary_frame"),
    ('"' + "x" * MAX_FRAME_BYTES + '"', "frame_too_large"),
])
def test_bad_frames_name_what_is_wrong(frame: str | bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(frame)
    assert caught.value.code == code and caught.value.message


async def test_every_payload_the_duel_service_builds_is_a_documented_message() -> None:
    store = MemoryStore()
    store.add_match(StoredMatch(match_id=1, rules=RULES, time_limit_s=60,
                                games=[StoredGame(1, 1), StoredGame(2, 2)],
                                deal={"layout": near_finished_layout()}))
    pubsub = MemoryPubSub()
    published: list[dict[str, Any]] = []
    original = pubsub.publish

    async def record(channel: str, message: dict[str, Any]) -> None:
        published.append(message)
        await original(channel, message)

    pubsub.publish = record  # type: ignore[method-assign]
    duels = DuelService(store=store, pubsub=pubsub)

    async def follow(channel: str) -> None:
        # A real subscription: the service builds no watch frame for a channel nobody follows.
        await pubsub.subscribe(channel)

    answers = [await duels.open_game(player_id=p, match_id=1, follow=follow) for p in (1, 2)]
    hint = decode(encode(await duels.hint(player_id=1, match_id=1)))
    assert isinstance(hint, Hint)  # an answer to one connection, not numbered
    for seq, action in enumerate(WINNING_LINE, start=1):
        answers.append(await duels.act(player_id=1, match_id=1, seq=seq, action=action))
    answers.append(await duels.act(player_id=1, match_id=1, seq=1, action=WINNING_LINE[0]))
    answers.append(await duels.spectate(viewer_id=1, match_id=1, player_id=None,
                                        follow=follow))
    answers.append(await duels.finish(player_id=2, match_id=1, seq=1))
    answers.append(await duels.replay(viewer_id=3, match_id=1, player_id=1))
    kinds = set()
    for n, payload in enumerate(answers + published, start=1):
        message = decode(encode(numbered(payload, n)))  # reads back as its type
        assert message == numbered(payload, n)
        kinds.add(kind(message))
    assert {"snapshot", "ack", "reject", "watch", "progress", "game_over", "match_result",
            "replay"} <= kinds
    await duels.close()


def test_the_document_holds_the_current_schemas() -> None:
    assert protocol_docs.main(["--check"]) == 0, "run: python -m app.api.protocol_docs"


def test_the_checked_encoder_refuses_a_frame_that_is_not_its_type() -> None:
    pong = ws._encode_checked(Pong())
    assert pong == ws._encode(Pong()) == b'{"type":"pong"}'
    ack = numbered(an_ack(1), 1)
    assert json.loads(ws._encode_checked(ack))["type"] == "ack"
    # A status out of its set, a number as a string: the test suite's check refuses them.
    for bad in (msgspec.structs.replace(ack, status="lost"),
                msgspec.structs.replace(ack, seq="1")):
        assert json.loads(ws._encode_checked(bad))["code"] == "internal"


def test_json_made_ahead_is_checked_against_its_frame(caplog: pytest.LogCaptureFixture) -> None:
    frame = Pong()
    assert ws._encode_checked(frame, b'{"type":"pong"}') == b'{"type":"pong"}'
    assert not caplog.records
    # Made ahead from something else: what goes out is the frame's own JSON, and it is said.
    assert ws._encode_checked(frame, b'{"type":"ping"}') == b'{"type":"pong"}'
    assert "made ahead differs" in caplog.text
    assert ws._encode(frame, None) == b'{"type":"pong"}'
    assert ws._encode(frame, b"as made") == b"as made"
