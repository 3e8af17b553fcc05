"""Request id middleware (pure ASGI, so it covers WebSockets too) with an access log.

A client may send its own `X-Request-ID` (a proxy's, say); an unusable one is replaced.
The id is echoed in the response and attached to every log line of the request.
"""

import logging
import re
import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.ops import context, metrics

log = logging.getLogger("spider.access")
_USABLE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
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
            log.exception("unhandled error", extra={"path": scope.get("path")})
            raise
        finally:
            metrics.HTTP_REQUESTS.labels(status=f"{status // 100}xx").inc()
            if scope.get("path") not in _QUIET_PATHS:
                log.info(
                    "%s %s %d",
                    scope.get("method"),
                    scope.get("path"),
                    status,
                    extra={"status": status, "ms": round((time.perf_counter() - started) * 1e3, 2)},
                )

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception:
            metrics.ERRORS.labels(where="ws").inc()
            log.exception("unhandled websocket error", extra={"path": scope.get("path")})
            raise


# Probes are scraped every few seconds; logging each would drown the useful lines.
_QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
