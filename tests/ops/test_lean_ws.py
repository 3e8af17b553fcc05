"""The lean WebSocket path is the one place of app/ that uses other libraries' private
parts: pinned to the releases it was written against, with a fallback for any other."""

from types import SimpleNamespace

from app.ops import lean_ws
from app.ops.lean_ws import LeanWebSocketProtocol
from app.ops.serve import ws_protocol


def _websocket_served_by_lean() -> tuple[SimpleNamespace, LeanWebSocketProtocol]:
    protocol = LeanWebSocketProtocol.__new__(LeanWebSocketProtocol)  # no server needed
    return SimpleNamespace(_send=protocol.send), protocol


def test_the_installed_releases_are_the_ones_lean_ws_was_written_for() -> None:
    # Failing here after an upgrade: read app/ops/lean_ws.py against the new releases'
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
