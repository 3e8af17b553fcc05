"""Tokens and the signup token bucket, without HTTP."""

import pytest

from app.api.ratelimit import TokenBuckets
from app.errors import NotAuthenticated
from app.services.auth import create_token, verify_token


def test_tokens_round_trip_and_resist_tampering() -> None:
    token = create_token(player_id=42, secret_key="k1")
    assert verify_token(token=token, secret_key="k1") == 42
    with pytest.raises(NotAuthenticated):
        verify_token(token=token, secret_key="k2")
    with pytest.raises(NotAuthenticated):
        verify_token(token=token[:-2] + ("AA" if token[-2:] != "AA" else "BB"),
                     secret_key="k1")
    with pytest.raises(NotAuthenticated):
        verify_token(token="", secret_key="k1")


def test_token_bucket_allows_a_burst_then_refills() -> None:
    now = [0.0]
    buckets = TokenBuckets(burst=2, per_minute=6.0, clock=lambda: now[0])
    assert buckets.take("a") == 0 and buckets.take("a") == 0
    wait = buckets.take("a")
    assert wait == pytest.approx(10.0)  # 6 per minute: one token every 10 s
    assert buckets.take("b") == 0  # another address has its own bucket
    now[0] = 10.0
    assert buckets.take("a") == 0
    assert buckets.take("a") > 0


def test_token_bucket_forgets_idle_addresses_when_full() -> None:
    now = [0.0]
    buckets = TokenBuckets(burst=1, per_minute=60.0, clock=lambda: now[0], max_keys=2)
    buckets.take("a")
    buckets.take("b")
    now[0] = 5.0
    assert buckets.take("c") == 0
    assert len(buckets._buckets) <= 2
