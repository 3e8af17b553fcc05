"""Property-based API test: schemathesis drives every operation of the OpenAPI schema,
in-process (ASGI), with valid and invalid data, on SQLite and PostgreSQL.

Zero server errors allowed, and every response must match its documented schema,
status codes and content type. Bounded (a few examples per operation and mode) to keep
the suite fast. Hypothesis is driven directly (``operation.as_strategy``) rather than
through schemathesis' pytest plugin.
"""

import warnings
from collections.abc import Iterator

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi import checks as openapi_checks

with warnings.catch_warnings():  # starlette nags about httpx2; the TestClient still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from app.main import create_app
from tests.support.api import make_settings

EXAMPLES_PER_OPERATION = 8
CHECKS = [
    schemathesis.checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
]


@pytest.fixture
def seeded_app(database_url: str) -> Iterator[tuple[FastAPI, dict[str, str]]]:
    """An app with three players, a full table (so a match and games exist), a friend,
    an open table and a link invitation: small ids in generated paths often hit."""
    app = create_app(make_settings(database_url))
    with TestClient(app) as client:
        tokens = []
        for name in ("Ann", "Bob", "Cid"):
            response = client.post("/api/players", json={"name": name})
            assert response.status_code == 201
            tokens.append({"Authorization": f"Bearer {response.json()['token']}"})
        table = client.post("/api/tables", json={}, headers=tokens[0]).json()
        assert client.post(f"/api/tables/{table['id']}/join", headers=tokens[1]).is_success
        assert client.post("/api/me/friends", json={"name": "Bob"},
                           headers=tokens[0]).status_code == 201
        other = client.post("/api/tables", json={"suits": 2}, headers=tokens[0]).json()
        assert client.post(f"/api/tables/{other['id']}/invites", json={},
                           headers=tokens[0]).status_code == 201
    yield app, tokens[2]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_api_has_no_server_errors(
    seeded_app: tuple[FastAPI, dict[str, str]], mode: GenerationMode
) -> None:
    app, auth = seeded_app
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20
    statuses: set[int] = set()

    for operation in operations:
        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, derandomize=True,
                  database=None, suppress_health_check=list(HealthCheck))
        def exercise(case: schemathesis.Case) -> None:
            headers = None if "Authorization" in (case.headers or {}) else dict(auth)
            response = case.call_and_validate(headers=headers, checks=CHECKS)
            statuses.add(response.status_code)

        try:
            exercise()
        except Unsatisfiable:
            # An operation without inputs (e.g. GET /api/bands) has no invalid variant.
            assert mode is GenerationMode.NEGATIVE, operation.label
    assert all(status < 500 for status in statuses)
    assert any(200 <= status < 300 for status in statuses)
