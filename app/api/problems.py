"""RFC 9457 problem details for every error: type, title, status, detail, code.

Service errors, validation errors (422), unknown routes and unexpected failures all
leave through here, as ``application/problem+json``.
"""

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from app.rooms.errors import RateLimited, ServiceError

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


async def _service_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServiceError)
    headers = None
    if isinstance(error, RateLimited):
        headers = {"Retry-After": str(max(1, round(error.retry_after)))}
    elif error.status == 401:
        headers = {"WWW-Authenticate": "Bearer"}
    return problem(error.status, error.code, error.detail, title=error.title, headers=headers,
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


def install_problem_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
