"""Reach the real Redis and PostgreSQL, or say what to start.

Under CI=true a missing service is a failure, never a skip: CI must not go green by
skipping the tests that matter.
"""

import os
import socket

import pytest

REDIS_URL = os.environ.get("SPIDER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def unavailable(message: str) -> None:
    """A service a test needs is missing: fail under CI, skip (saying why) elsewhere."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def require(service: str, host: str, port: int) -> None:
    if not _reachable(host, port):
        unavailable(f"{service} is not reachable at {host}:{port}; start it to run this test")


def require_redis() -> str:
    require("Redis", "127.0.0.1", 6379)
    return REDIS_URL
