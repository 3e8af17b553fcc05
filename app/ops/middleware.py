"""Request id middleware (pure ASGI, so it covers WebSockets too) with an access log.

A client may send its own `X-Request-ID` (a proxy's, say); an unusable one is replaced.
The id is echoed in the response and attached to every log line of the request.

`WebSocketShortcut` gives the long-lived WebSocket endpoints (`/ws`) the same request id
and error accounting without the rest of the stack (see its docstring).
"""

import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.ops import context
from app.runtime import metrics

log = logging.getLogger("spider.access")
_USABLE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
# An invitation's code is a bearer secret (whoever holds it takes the seat): the access
# log keeps the route, not the code.
_INVITE_CODE = re.compile(r"(/invites/)[^/]+")
HEADER = b"x-request-id"


def _request_id(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == HEADER:
            text: str = value.decode("latin-1")
            if _USABLE_ID.fullmatch(text):
                return text
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = _request_id(scope)
        token = context.request_id.set(rid)
        try:
            if scope["type"] == "http":
                await self._http(scope, receive, send, rid)
            else:
                await self._websocket(scope, receive, send)
        finally:
            context.request_id.reset(token)

    async def _http(self, scope: Scope, receive: Receive, send: Send, rid: str) -> None:
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (HEADER, rid.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            metrics.ERRORS.labels(where="http").inc()
            log.exception("unhandled error",
                          extra={"path": loggable_path(scope.get("path") or "")})
            raise
        finally:
            metrics.HTTP_REQUESTS.labels(status=f"{status // 100}xx").inc()
            if scope.get("path") not in _QUIET_PATHS:
                log.info(
                    "%s %s %d",
                    scope.get("method"),
                    loggable_path(scope.get("path") or ""),
                    status,
                    extra={"status": status, "ms": round((time.perf_counter() - started) * 1e3, 2)},
                )

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception:
            _websocket_failed(scope)
            raise


def loggable_path(path: str) -> str:
    """The path as logs may keep it: secrets in it (invitation codes) replaced by ``…``."""
    return _INVITE_CODE.sub(r"\1…", path)


def _websocket_failed(scope: Scope) -> None:
    metrics.ERRORS.labels(where="ws").inc()
    log.exception("unhandled websocket error",
                  extra={"path": loggable_path(scope.get("path") or "")})


WebSocketEndpoint = Callable[[WebSocket], Awaitable[None]]


class WebSocketShortcut:
    """Around the app: WebSocket scopes of the given paths go straight to their endpoint.

    An idle WebSocket keeps its whole ASGI call chain suspended for hours. Through the
    full stack (server-error, exception-telemetry, body-limit, request-id and exception
    middleware, FastAPI's exit stack, the router and its included routers, Starlette's
    websocket session wrapper) that is some twenty coroutine frames and their objects,
    ~6 KB per connection. For a WebSocket those layers do nothing but pass it on, except
    the request id and the error metric and log line, which are done here as well.
    Everything else (other paths, HTTP, lifespan) takes the usual way.
    """

    def __init__(self, app: ASGIApp, endpoints: Mapping[str, WebSocketEndpoint]) -> None:
        self.app = app
        self.endpoints = dict(endpoints)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = self.endpoints.get(_route_path(scope)) if scope["type"] == "websocket" else None
        if endpoint is None:
            await self.app(scope, receive, send)
            return
        token = context.request_id.set(_request_id(scope))
        scope.setdefault("app", self.app)  # what the app sets for its routes (websocket.app)
        try:
            await endpoint(WebSocket(scope, receive, send))
        except Exception:
            _websocket_failed(scope)
            raise
        finally:
            context.request_id.reset(token)


def _route_path(scope: Scope) -> str:
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root):] if root and path.startswith(root) else path


# Probes are scraped every few seconds; logging each would drown the useful lines.
_QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
