"""The OpenAPI document says exactly what the routes do: the business 422 codes of each
operation, ``suits`` as 1, 2 or 4, and date parameters that take ISO 8601 only."""

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.api.routes.common import GUARDED_CODES
from tests.api.test_methods_allowed import concrete
from tests.support.api import assert_problem, signup
from tests.support.raised_codes import api_routes, raised_codes


def listed_codes(operation: dict[str, Any]) -> set[str]:
    if "422" not in operation["responses"]:  # takes no input at all (/api/badges)
        assert not operation.get("parameters") and "requestBody" not in operation
        return set()
    schema = operation["responses"]["422"]["content"]["application/problem+json"]["schema"]
    [enum] = [part["properties"]["code"]["enum"] for part in schema["allOf"]
              if "properties" in part]
    assert "validation_error" in enum
    return set(enum) - {"validation_error"}


def test_every_business_422_code_a_route_raises_is_listed(app: FastAPI) -> None:
    paths = app.openapi()["paths"]
    everything: set[str] = set()
    for route in api_routes():
        raised = raised_codes(route.endpoint)
        everything |= raised
        for method in route.methods:
            operation = paths[route.path][method.lower()]
            assert listed_codes(operation) == raised - GUARDED_CODES, (method, route.path)
    assert {"self", "bad_dates", "bad_record"} <= everything  # the walk sees them
    assert everything >= GUARDED_CODES  # the guard list names real codes only


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/api/me/friends?page=0", None),
    ("GET", "/api/tables?page_size=101", None),
    ("GET", "/api/leaderboard?suits=3", None),
    ("GET", "/api/tables?suits=3", None),
    ("GET", "/api/tables?level=master", None),
    ("POST", "/api/tables", {"preset": "speed"}),
    ("POST", "/api/tables", {"suits": 3}),
    ("POST", "/api/tables", {"time_limit_seconds": 1}),
    ("POST", "/api/tables", {"level": "master"}),
    ("POST", "/api/tables", {"difficulty": "brutal"}),
    ("POST", "/api/players", {"name": "1abc"}),
    ("POST", "/api/players", {"name": "ab"}),
    ("GET", "/api/players?search=a%21", None),
])
async def test_guarded_codes_are_refused_by_the_request_schema_first(
    client: httpx.AsyncClient, method: str, path: str, body: dict[str, Any] | None,
) -> None:
    ann = await signup(client, "Ann")
    answer = await client.request(method, path, json=body, headers=ann.auth)
    assert_problem(answer, 422, "validation_error")


def _suits_schemas(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            found += [(f"{method} {path}", p["schema"]) for p in operation.get("parameters", [])
                      if p["name"] == "suits"]
    for name, schema in document["components"]["schemas"].items():
        if "suits" in schema.get("properties", {}):
            found.append((name, schema["properties"]["suits"]))
    return found


def _enum_of(schema: dict[str, Any], document: dict[str, Any]) -> list[Any]:
    if "$ref" in schema:
        return _enum_of(document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]],
                        document)
    if "anyOf" in schema:
        options = [s for s in schema["anyOf"] if s.get("type") != "null"]
        assert len(options) == 1, schema
        return _enum_of(options[0], document)
    return list(schema.get("enum", []))


def test_suits_is_an_enum_of_1_2_4_everywhere(app: FastAPI) -> None:
    document = app.openapi()
    places = _suits_schemas(document)
    assert len(places) >= 15  # queries, bodies and answers
    for place, schema in places:
        assert _enum_of(schema, document) == [1, 2, 4], place


def _date_parameters(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                schema = parameter["schema"]
                formats = {s.get("format") for s in [schema, *schema.get("anyOf", [])]}
                if formats & {"date", "date-time"}:
                    found.append((method, path, parameter["name"]))
    return found


@pytest.mark.parametrize("number", ["12345", "0", "1.5e9", "-1"])
async def test_date_parameters_refuse_plain_numbers(app: FastAPI, client: httpx.AsyncClient,
                                                    number: str) -> None:
    ann = await signup(client, "Ann")
    parameters = _date_parameters(app.openapi())
    assert {(p, n) for _, p, n in parameters} >= {
        ("/api/players/{player_id}/history", "since"),
        ("/api/players/{player_id}/history", "until"), ("/api/daily/{day}/board", "day")}
    for method, path, name in parameters:
        url = concrete(path.replace("{player_id}", str(ann.id)).replace(f"{{{name}}}", number))
        params = {} if f"{{{name}}}" in path else {name: number}
        answer = await client.request(method, url, params=params, headers=ann.auth)
        problem = assert_problem(answer, 422, "validation_error")
        assert "ISO 8601" in problem["detail"] and number in problem["detail"], problem


async def test_date_parameters_still_take_iso_8601(client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    for query in ("since=2026-01-01", "since=2026-01-01T10:00:00Z&until=2026-02-01T00:00:00",
                  "until=2026-01-01T10:00:00%2B02:00"):
        answer = await client.get(f"/api/players/{ann.id}/history?{query}")
        assert answer.status_code == 200, (query, answer.text)
    assert_problem(await client.get(f"/api/players/{ann.id}/history?since=2026-02-01"
                                    "&until=2026-01-01"), 422, "bad_dates")
