"""The lean WebSocket path is the one place of app/ that uses other libraries' private
parts: pinned to the releases it was written against, with a fallback for any other."""

import asyncio
from types import SimpleNamespace

from websockets.protocol import State

from app.ops.serve import ws_protocol
from app.runtime import lean_ws
from app.runtime.lean_ws import LeanWebSocketProtocol


def _websocket_served_by_lean() -> tuple[SimpleNamespace, LeanWebSocketProtocol]:
    protocol = LeanWebSocketProtocol.__new__(LeanWebSocketProtocol)  # no server needed
    return SimpleNamespace(_send=protocol.send), protocol


def test_the_installed_releases_are_the_ones_lean_ws_was_written_for() -> None:
    # Failing here after an upgrade: read app/runtime/lean_ws.py against the new releases'
    # internals (uvicorn's WebSocketsSansIOProtocol, Starlette's WebSocket, websockets'
    # frames), run tests/ops/test_serve.py, then move WRITTEN_FOR on.
    assert lean_ws.installed_versions() == lean_ws.WRITTEN_FOR
    assert lean_ws.FITS


def test_other_releases_do_not_fit() -> None:
    assert not lean_ws.fits({**lean_ws.WRITTEN_FOR, "uvicorn": "0.99.0"})
    assert lean_ws.fits(dict(lean_ws.WRITTEN_FOR))


def test_with_fitting_releases_frames_go_straight_to_the_protocol() -> None:
    websocket, protocol = _websocket_served_by_lean()
    assert lean_ws.text_sender(websocket, fitting=True) is protocol
    assert ws_protocol("lean", fitting=True) is LeanWebSocketProtocol


def test_with_other_releases_the_server_and_the_frames_take_the_stock_way() -> None:
    websocket, _ = _websocket_served_by_lean()
    assert lean_ws.text_sender(websocket, fitting=False) is None  # the ASGI send
    assert ws_protocol("lean", fitting=False) == "websockets-sansio"  # uvicorn's own


def test_anything_but_the_lean_protocol_sends_the_asgi_way() -> None:
    async def send(message: object) -> None: ...

    assert lean_ws.text_sender(SimpleNamespace(_send=send), fitting=True) is None
    assert lean_ws.text_sender(SimpleNamespace(), fitting=True) is None


class _Transport:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return False


def _open_protocol(transport: _Transport) -> LeanWebSocketProtocol:
    """An accepted, open connection as far as send_text_soon looks (no server needed)."""
    protocol = LeanWebSocketProtocol.__new__(LeanWebSocketProtocol)
    protocol.handshake_complete, protocol.close_sent, protocol.disconnected = True, False, False
    protocol.initial_response = None
    protocol.writable = lean_ws.LightEvent()
    protocol.writable.set()
    protocol.conn = SimpleNamespace(  # type: ignore[assignment]
        state=State.OPEN, extensions=[], writes=[], expect_continuation_frame=False)
    protocol.transport = transport  # type: ignore[assignment]
    protocol.loop = asyncio.get_running_loop()
    return protocol


async def test_frames_wait_for_the_loop_turn_but_an_answer_goes_at_once_behind_them() -> None:
    transport = _Transport()
    protocol = _open_protocol(transport)
    assert protocol.send_text_soon(b'{"type":"progress"}')
    assert transport.writes == []  # with the rest of this turn's frames, one turn later
    assert protocol.send_text_soon(b'{"type":"ack"}', at_once=True)
    # Now, in one write, behind the frame queued before it.
    assert transport.writes == [lean_ws.text_frame(b'{"type":"progress"}')
                                + lean_ws.text_frame(b'{"type":"ack"}')]
    await asyncio.sleep(0)  # the turn's flush finds nothing left
    assert len(transport.writes) == 1
    protocol.send_text_soon(b'{"type":"progress"}')
    await asyncio.sleep(0)
    assert transport.writes[1:] == [lean_ws.text_frame(b'{"type":"progress"}')]
