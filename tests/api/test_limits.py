"""The hostile-input limit helpers, on their own."""

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.limits import (
    FrameGuard,
    FrameRateLimited,
    FrameTooDeep,
    FrameTooLarge,
    check_frame,
    exceeds_depth,
    origin_allowed,
)
from app.api.ratelimit import TokenBucket
from app.settings import Settings
from tests.support.clock import FakeClock


def depth_of(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    return 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:'),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=30,
)


@given(value=json_values, limit=st.integers(min_value=0, max_value=8))
@settings(deadline=None)  # a loaded machine made one example take 262 ms: flaky, not slow
def test_depth_check_agrees_with_the_parsed_value(value: Any, limit: int) -> None:
    text = json.dumps(value)
    assert exceeds_depth(text, limit=limit) == (depth_of(json.loads(text)) > limit)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"s": "[[[[[[[[[[{{{{{{{{"})
    assert not exceeds_depth(text, limit=1)


def test_a_frame_too_large_is_refused_with_its_size() -> None:
    with pytest.raises(FrameTooLarge, match="at most 100 bytes; this one has 101"):
        check_frame("x" * 101, max_bytes=100, max_depth=8)
    check_frame("x" * 100, max_bytes=100, max_depth=8)


def test_size_counts_utf8_bytes_not_characters() -> None:
    with pytest.raises(FrameTooLarge):
        check_frame("é" * 51, max_bytes=100, max_depth=8)


def test_a_deeply_nested_frame_is_refused_before_parsing() -> None:
    frame = "[" * 5000 + "]" * 5000
    with pytest.raises(FrameTooDeep, match="at most 8 deep"):
        check_frame(frame, max_bytes=1_000_000, max_depth=8)
    assert FrameTooDeep.code == "frame_too_deep"


def test_the_bucket_allows_a_burst_then_the_rate() -> None:
    clock = FakeClock(100.0)
    bucket = TokenBucket(rate=2, burst=3, clock=clock)
    for _ in range(3):
        assert bucket.take() == 0
    assert bucket.take() == pytest.approx(0.5)
    clock.now += 0.5
    assert bucket.take() == 0
    assert bucket.take() == pytest.approx(0.5)
    guard = FrameGuard(max_bytes=50, max_depth=2, bucket=bucket)
    with pytest.raises(FrameRateLimited) as refused:
        guard.admit("{}")
    assert refused.value.retry_after == pytest.approx(0.5)


def test_the_guard_counts_strikes_and_asks_to_close_a_flooding_client() -> None:
    clock = FakeClock(100.0)
    guard = FrameGuard(
        max_bytes=50, max_depth=2, bucket=TokenBucket(rate=1, burst=1, clock=clock), max_strikes=3
    )
    guard.admit('{"type":"ping"}')
    for _ in range(3):
        assert not guard.should_close
        with pytest.raises(FrameRateLimited):
            guard.admit('{"type":"ping"}')
    assert guard.should_close
    clock.now += 1
    guard.admit('{"type":"ping"}')
    assert guard.strikes == 0


def test_the_guard_takes_its_limits_from_settings() -> None:
    settings = Settings(ws_max_frame_bytes=64, ws_max_json_depth=3, ws_actions_per_second=5)
    guard = FrameGuard.from_settings(settings)
    assert (guard.max_bytes, guard.max_depth, guard.bucket.rate) == (64, 3, 5)
    with pytest.raises(FrameTooDeep):
        guard.admit("[[[[1]]]]")


@pytest.mark.parametrize(
    ("origin", "allowed", "host", "ok"),
    [
        (None, [], "spider.example", True),  # not a browser
        ("https://spider.example", [], "spider.example", True),  # same host
        ("https://evil.example", [], "spider.example", False),
        ("https://evil.example", ["*"], "spider.example", True),
        ("https://app.example", ["https://app.example"], "api.example", True),
        ("http://127.0.0.1:8000", [], "127.0.0.1:8000", True),
        ("http://127.0.0.1:9999", [], "127.0.0.1:8000", False),
        ("null", [], "spider.example", False),  # sandboxed iframe, file://
    ],
)
def test_origin_check(origin: str | None, allowed: list[str], host: str, ok: bool) -> None:
    assert origin_allowed(origin, allowed=allowed, host=host) is ok
