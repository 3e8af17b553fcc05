"""One family for every refusal of the domain: services, rooms and the protocol.

An error says *what kind* of refusal it is by its category (a direct subclass of
:class:`SpiderError`: the request is malformed, invalid, unauthenticated, forbidden,
names nothing, conflicts, is too large or too frequent), *which one* by a stable machine
``code`` and *why* in ``detail`` for people. How it travels is the adapters' business,
never the raiser's: the HTTP status and problem title in ``app/api/problems.py``, the
WebSocket error frame and close code in ``app/api/ws.py``. Errors below the adapters
carry no transport detail (tests/test_errors.py holds both rules).
"""

from __future__ import annotations


class SpiderError(Exception):
    """Base of the family; raise a category or a subclass of one, never this."""

    code = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra: dict[str, object] = {}  # more members of the answer (an HTTP problem's)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        """The detail, by the name the WebSocket error frame gives it."""
        return self.detail


class BadRequest(SpiderError):
    """Not even well formed: a body that is not JSON, a frame that is no message."""


class InvalidInput(SpiderError, ValueError):
    """Well formed, but a value the domain refuses (a bad name, dates out of order)."""

    code = "invalid_input"


class NotAuthenticated(SpiderError):
    code = "not_authenticated"


class Forbidden(SpiderError):
    code = "forbidden"


class NotFound(SpiderError):
    code = "not_found"


class Conflict(SpiderError):
    """Refused in the current state of things (a seat taken, a game over)."""

    code = "conflict"


class TooLarge(SpiderError):
    code = "too_large"


class RateLimited(SpiderError):
    code = "rate_limited"

    def __init__(self, detail: str, *, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.retry_after = retry_after  # seconds until a retry may succeed, when known


class Unavailable(SpiderError):
    """Storage could not be reached just now: nothing changed, the same request may be
    sent again (a database restart, terminated connections)."""

    code = "unavailable"


CATEGORIES: tuple[type[SpiderError], ...] = (
    BadRequest, InvalidInput, NotAuthenticated, Forbidden, NotFound, Conflict, TooLarge,
    RateLimited, Unavailable,
)
