"""Structured logs: one JSON object per line, with request, game and player ids.

One formatter for everything, uvicorn's own loggers included, so a log pipeline never has
to parse two formats.
"""

import json
import logging
import sys
import time
from typing import Any

from app.ops import context

# Attributes every LogRecord has; anything else on a record came from `extra=` and is
# worth printing.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
}
_OURS = "_spider_handler"


class JsonFormatter(logging.Formatter):
    """Formats a record as a single JSON line; never raises on odd `extra` values."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": _iso_time(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, var in (
            ("request_id", context.request_id),
            ("game_id", context.game_id),
            ("player_id", context.player_id),
        ):
            value = var.get()
            if value is not None:
                entry[key] = value
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, separators=(",", ":"))


def _iso_time(created: float) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created))
    return f"{seconds}.{int(created % 1 * 1000):03d}Z"


def configure_logging(*, level: str = "INFO", fmt: str = "json") -> None:
    """Install one stderr handler on the root logger; idempotent.

    Handlers installed by others (pytest's capture, for one) are left alone; uvicorn's
    loggers are made to propagate to the root so they share the format, except its
    access log, which stays silent (app/ops/middleware.py writes one without secrets).
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, _OURS, False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    setattr(handler, _OURS, True)
    text = logging.Formatter("%(levelname)s %(name)s %(message)s")
    handler.setFormatter(JsonFormatter() if fmt == "json" else text)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error"):
        uv = logging.getLogger(name)
        uv.handlers = []
        uv.propagate = True
    # uvicorn's access log writes whole URLs (query strings, invitation codes) and turns
    # itself on whenever its logger reaches a handler: kept apart, it never does. The
    # request-id middleware writes the access log instead, secrets left out.
    access = logging.getLogger("uvicorn.access")
    access.handlers = []
    access.propagate = False


def flush_logs() -> None:
    """Flush every handler of the root logger (called last at shutdown)."""
    for handler in logging.getLogger().handlers:
        handler.flush()
