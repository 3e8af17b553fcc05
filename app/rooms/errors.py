"""Service errors: each knows its HTTP status and a stable machine-readable ``code``.

Routes never build error responses themselves; one handler turns these into RFC 9457
problem details (app/api/problems.py).
"""


class ServiceError(Exception):
    status = 400
    title = "Bad request"
    code = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra: dict[str, object] = {}  # more members of the problem document
        if code is not None:
            self.code = code


class InvalidInput(ServiceError, ValueError):
    status = 422
    title = "Invalid input"
    code = "invalid_input"


class NotAuthenticated(ServiceError):
    status = 401
    title = "Not authenticated"
    code = "not_authenticated"


class Forbidden(ServiceError):
    status = 403
    title = "Forbidden"
    code = "forbidden"


class NotFound(ServiceError):
    status = 404
    title = "Not found"
    code = "not_found"


class Conflict(ServiceError):
    status = 409
    title = "Conflict"
    code = "conflict"


class RateLimited(ServiceError):
    status = 429
    title = "Too many requests"
    code = "rate_limited"

    def __init__(self, detail: str, *, retry_after: float) -> None:
        super().__init__(detail)
        self.retry_after = retry_after
