"""Token buckets, the one rate-limit rule: WebSocket frames (one bucket per connection,
app/api/limits.py) and REST signups (one bucket per client key, e.g. the IP)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]


@dataclass
class TokenBucket:
    """``rate`` tokens per second, holding at most ``burst``; it starts full."""

    rate: float
    burst: int
    clock: Clock = time.monotonic
    tokens: float = field(init=False)
    updated: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)
        self.updated = self.clock()

    def take(self) -> float:
        """0 if allowed (a token is spent), else the seconds until a token is available."""
        now = self.clock()
        self.tokens = self.tokens_at(now)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else float("inf")

    def tokens_at(self, now: float) -> float:
        return min(float(self.burst), self.tokens + (now - self.updated) * self.rate)


class TokenBuckets:
    """A bucket per key: ``burst`` requests at once, refilled at ``per_minute``; idle
    buckets are forgotten."""

    def __init__(self, *, burst: int, per_minute: float,
                 clock: Clock = time.monotonic, max_keys: int = 100_000) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> float:
        """0 if allowed (a token is spent), else the seconds until a token is available."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._forget_full(self.clock())
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.take()

    def _forget_full(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            if bucket.tokens_at(now) >= self.burst:
                del self._buckets[key]
