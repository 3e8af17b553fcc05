"""The test-database helper itself: a missing PostgreSQL fails under CI, skips elsewhere."""

import pytest

from bench import database as connections
from tests.support import database


def _unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connections, "PG_HOST", "127.0.0.1")
    monkeypatch.setattr(connections, "PG_PORT", 1)  # nothing listens on port 1


def test_missing_postgres_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    _unreachable(monkeypatch)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="Start PostgreSQL"):
        database.require_postgres()


def test_missing_postgres_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    _unreachable(monkeypatch)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Start PostgreSQL"):
        database.require_postgres()
