"""`/ws` skips the middleware stack but keeps the request id and the error accounting."""

import logging
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.ops import context
from app.ops.middleware import WebSocketShortcut
from app.runtime import metrics


def ws_scope(path: str, *, request_id: bytes | None = None) -> Scope:
    headers = [(b"x-request-id", request_id)] if request_id else []
    return {"type": "websocket", "path": path, "root_path": "", "headers": headers}


async def nothing_received() -> Message:
    return {"type": "websocket.disconnect", "code": 1000}


async def nothing_sent(message: Message) -> None:
    pass


def errors() -> float:
    return metrics.ERRORS.labels(where="ws")._value.get()


async def test_a_websocket_of_a_listed_path_goes_straight_to_its_endpoint_with_an_id() -> None:
    seen: list[Any] = []
    passed: list[str] = []

    async def endpoint(websocket: WebSocket) -> None:
        seen.append((websocket.url.path, context.request_id.get()))

    async def rest(scope: Scope, receive: Receive, send: Send) -> None:
        passed.append(scope["path"])

    shortcut = WebSocketShortcut(rest, {"/ws": endpoint})
    await shortcut(ws_scope("/ws", request_id=b"lb-7"), nothing_received, nothing_sent)
    await shortcut(ws_scope("/ws"), nothing_received, nothing_sent)
    await shortcut(ws_scope("/bench/echo"), nothing_received, nothing_sent)
    await shortcut({"type": "http", "path": "/ws", "headers": []}, nothing_received,
                   nothing_sent)
    assert seen[0] == ("/ws", "lb-7")
    assert seen[1][0] == "/ws" and len(seen[1][1]) == 32
    assert passed == ["/bench/echo", "/ws"]  # other paths and HTTP take the usual way
    assert context.request_id.get() is None  # reset after the connection


async def test_an_endpoint_failure_is_counted_logged_and_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def endpoint(websocket: WebSocket) -> None:
        raise RuntimeError("boom")

    async def rest(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError("not routed")

    before = errors()
    with caplog.at_level(logging.ERROR, logger="spider.access"), \
            pytest.raises(RuntimeError):
        await WebSocketShortcut(rest, {"/ws": endpoint})(
            ws_scope("/ws"), nothing_received, nothing_sent)
    assert errors() == before + 1
    assert any(r.getMessage() == "unhandled websocket error" for r in caplog.records)


def test_the_server_runs_the_app_behind_the_shortcut() -> None:
    from fastapi import FastAPI

    from app import main
    from app.api.ws import duel_socket

    assert isinstance(main.app, WebSocketShortcut)
    assert isinstance(main.app.app, FastAPI)
    assert main.app.endpoints == {"/ws": duel_socket}


async def test_the_endpoint_sees_the_app_it_is_served_for() -> None:
    seen: list[Any] = []

    async def endpoint(websocket: WebSocket) -> None:
        seen.append(websocket.app)

    async def rest(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError("not routed")

    shortcut = WebSocketShortcut(rest, {"/ws": endpoint})
    await shortcut(ws_scope("/ws"), nothing_received, nothing_sent)
    assert seen == [rest]
