"""Hostile-input limits for the WebSocket, as small helpers (REST signups: app/api/ratelimit.py).

The WebSocket handler calls them in this order::

    if not origin_allowed(origin, allowed=settings.ws_allowed_origins, host=host): refuse
    async with app.state.connections.track(websocket, player=player_id): ...  # per player
    guard = FrameGuard.from_settings(settings)        # one per connection
    guard.admit(frame)     # raises LimitExceeded (.code, .message); nothing is parsed yet
    if guard.should_close: close with 1008

Frame size and depth are checked on the raw text before any JSON parser sees it, so a
16 KB frame of 8,000 nested brackets costs one linear scan, not a recursion error.
Dead clients are shed by uvicorn's ping/pong (`--ws-ping-interval`, `--ws-ping-timeout`)
and oversized frames beyond `--ws-max-size` by the protocol layer itself.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from app import errors
from app.api.ratelimit import Clock, TokenBucket
from app.errors import SpiderError, TooLarge
from app.settings import Settings


class LimitExceeded(SpiderError):
    """A frame or request refused by a limit; nothing was applied."""

    code = "limit_exceeded"


class FrameTooLarge(LimitExceeded, TooLarge):
    """A frame over ``ws_max_frame_bytes`` bytes."""

    code = "frame_too_large"


class FrameTooDeep(LimitExceeded, TooLarge):
    """A frame whose arrays and objects nest deeper than ``ws_max_json_depth``."""

    code = "frame_too_deep"


class FrameRateLimited(LimitExceeded, errors.RateLimited):
    """A message over the player's budget (``ws_actions_per_second``, burst
    ``ws_action_burst``); a flood of them closes the socket (1008)."""

    code = "rate_limited"


def exceeds_depth(text: str, *, limit: int) -> bool:
    """True if arrays and objects in `text` nest deeper than `limit`.

    Brackets inside strings do not count. The text need not be valid JSON: the parser
    judges that later; this only bounds how deep it would have to go.
    """
    if text.count("[") + text.count("{") <= limit:
        return False  # too few brackets to be too deep: the common case costs no scan
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def check_frame(frame: str | bytes, *, max_bytes: int, max_depth: int) -> None:
    """Refuse a frame that is too large or nested too deeply, before it is parsed."""
    size = len(frame) if isinstance(frame, bytes) else len(frame.encode())
    if size > max_bytes:
        raise FrameTooLarge(f"a frame may hold at most {max_bytes} bytes; this one has {size}")
    text = frame.decode(errors="replace") if isinstance(frame, bytes) else frame
    if exceeds_depth(text, limit=max_depth):
        raise FrameTooDeep(f"a frame may nest arrays and objects at most {max_depth} deep")


@dataclass
class FrameGuard:
    """Per-connection gate: size, depth and rate of the client's frames.

    A client that keeps hammering after being told is not worth a socket: after
    `max_strikes` refusals in a row `should_close` turns true (close with 1008).
    """

    max_bytes: int
    max_depth: int
    bucket: TokenBucket
    max_strikes: int = 50
    strikes: int = 0

    @classmethod
    def from_settings(cls, settings: Settings, *, clock: Clock = time.monotonic) -> FrameGuard:
        return cls(
            max_bytes=settings.ws_max_frame_bytes,
            max_depth=settings.ws_max_json_depth,
            bucket=TokenBucket(
                rate=settings.ws_actions_per_second, burst=settings.ws_action_burst, clock=clock
            ),
        )

    def admit(self, frame: str | bytes) -> None:
        try:
            self._take_token()
            check_frame(frame, max_bytes=self.max_bytes, max_depth=self.max_depth)
        except LimitExceeded:
            self.strikes += 1
            raise
        self.strikes = 0

    def _take_token(self) -> None:
        wait = self.bucket.take()
        if wait > 0:
            raise FrameRateLimited(
                f"at most {self.bucket.rate:g} messages per second (bursts of "
                f"{self.bucket.burst}); retry in {wait:.2f}s",
                retry_after=wait,
            )

    @property
    def should_close(self) -> bool:
        return self.strikes >= self.max_strikes


def origin_allowed(origin: str | None, *, allowed: Sequence[str], host: str | None) -> bool:
    """Browsers send Origin; refuse pages of other sites from opening sockets as our users.

    No Origin header: not a browser (bots, tests, the load harness), allowed. A page of
    the server's own host is always allowed; others only if listed (or "*" is listed).
    """
    if origin is None:
        return True
    if "*" in allowed or origin in allowed:
        return True
    origin_host = urlsplit(origin).netloc
    return bool(host) and origin_host.lower() == (host or "").lower()
