"""RFC 9457 problem details for every error: type, title, status, detail, code.

Domain errors (the family of ``app/errors.py``), validation errors (422), unknown routes
and unexpected failures all leave through here, as ``application/problem+json``. The
HTTP status of each kind of domain error is decided here and nowhere else.
"""

import logging
from collections.abc import Callable, Coroutine
from http import HTTPStatus
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from app import errors
from app.errors import SpiderError
from app.services.record_check import RecordTooLarge

MEDIA_TYPE = "application/problem+json"
log = logging.getLogger(__name__)


def problem(
    status: int, code: str, detail: str, *, title: str | None = None,
    headers: dict[str, str] | None = None, **extra: Any,
) -> JSONResponse:
    body = {
        "type": f"/problems/{code}",
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


# By category (app/errors.py): the status and the problem's title.
HTTP_STATUS: dict[type[SpiderError], tuple[int, str]] = {
    errors.BadRequest: (400, "Bad request"),
    errors.InvalidInput: (422, "Invalid input"),
    errors.NotAuthenticated: (401, "Not authenticated"),
    errors.Forbidden: (403, "Forbidden"),
    errors.NotFound: (404, "Not found"),
    errors.Conflict: (409, "Conflict"),
    errors.TooLarge: (413, "Too large"),
    errors.RateLimited: (429, "Too many requests"),
    errors.Unavailable: (503, "Service unavailable"),
}
_TITLES: dict[type[SpiderError], str] = {RecordTooLarge: "Record too large"}


def http_status(kind: type[SpiderError]) -> tuple[int, str]:
    """The status and title of an error class: its category's, its own title if it has one."""
    category = next((c for c in kind.__mro__ if c in HTTP_STATUS), None)
    if category is None:
        raise LookupError(f"{kind.__name__} belongs to no category of app/errors.py")
    status, title = HTTP_STATUS[category]
    return status, _TITLES.get(kind, title)


async def _domain_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, SpiderError)
    status, title = http_status(type(error))
    headers = None
    if isinstance(error, errors.RateLimited) and error.retry_after is not None:
        headers = {"Retry-After": str(max(1, round(error.retry_after)))}
    elif isinstance(error, errors.NotAuthenticated):
        headers = {"WWW-Authenticate": "Bearer"}
    return problem(status, error.code, error.detail, title=title, headers=headers,
                   **error.extra)


def _where(location: tuple[Any, ...] | list[Any]) -> str:
    return ".".join(str(part) for part in location)


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = [{"loc": _where(item.get("loc", ())), "msg": str(item.get("msg", ""))}
              for item in error.errors()]
    detail = "; ".join(f"{item['loc']}: {item['msg']}" for item in errors) or "invalid request"
    return problem(422, "validation_error", detail, title="Invalid request", errors=errors)


_HTTP_CODES = {
    400: "bad_request", 401: "not_authenticated", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 406: "not_acceptable", 413: "too_large",
    415: "unsupported_media_type",
}


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route takes at this path. Starlette's own ``Allow`` names only the
    first route whose path matched, while FastAPI keeps one route per method (GET and
    POST ``/api/me/friends`` are two routes). Static mounts answer for themselves."""
    routes = [route for route in request.app.router.routes if not isinstance(route, Mount)]
    return [method for method in _METHODS
            if any(route.matches({**request.scope, "method": method})[0] is Match.FULL
                   for route in routes)]


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    status = error.status_code
    code = _HTTP_CODES.get(status, f"http_{status}")
    detail = error.detail if isinstance(error.detail, str) else HTTPStatus(status).phrase
    headers = dict(getattr(error, "headers", None) or {})
    if status == 405 and (allowed := _allowed_methods(request)):
        headers["Allow"] = ", ".join(allowed)
    return problem(status, code, detail, headers=headers or None)


async def _unexpected(request: Request, error: Exception) -> JSONResponse:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return problem(500, "internal_error", "the server failed; the error was logged")


# For the app's constructor (app/main.py): every error leaves as a problem document.
EXCEPTION_HANDLERS: dict[int | type[Exception],
                         Callable[[Request, Any], Coroutine[Any, Any, Response]]] = {
    SpiderError: _domain_error,
    RequestValidationError: _validation_error,
    StarletteHTTPException: _http_error,
    Exception: _unexpected,
}
