"""A 405 names every method the path takes (RFC 9110 ``Allow``), on every route of the app:
Starlette alone named only the first route that matched (GET for ``/api/me/friends``)."""

import re

import httpx
from fastapi import FastAPI

from tests.support.api import assert_problem

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
SAMPLES = {"code": "A" * 20, "day": "2026-12-01", "name": "Ann"}  # any other: an id
PAGES = ("/", "/docs", "/redoc", "/openapi.json")


def concrete(template: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda found: SAMPLES.get(found[1], "1"), template)


def every_path(app: FastAPI) -> list[str]:
    """Each route of the app once: the OpenAPI paths and the pages outside the schema."""
    return [*PAGES, *(concrete(path) for path in app.openapi()["paths"])]


async def test_every_405_names_all_the_methods_of_its_path(app: FastAPI,
                                                           client: httpx.AsyncClient) -> None:
    checked = 0
    for path in every_path(app):
        answers = {method: await client.request(method, path) for method in METHODS}
        taken = [method for method, answer in answers.items() if answer.status_code != 405]
        assert taken, path
        for method, answer in answers.items():
            if answer.status_code == 405:
                if method != "HEAD":  # a HEAD answer has no body
                    assert_problem(answer, 405, "method_not_allowed")
                assert answer.headers["allow"].split(", ") == taken, (method, path)
                checked += 1
    assert checked > 100  # every path refuses most methods


async def test_the_paths_named_in_the_issue(client: httpx.AsyncClient) -> None:
    for path, allowed in [("/api/me/friends", "GET, POST"), ("/api/me/ignores", "GET, POST"),
                          ("/api/tables", "GET, POST"),
                          (f"/api/invites/{'A' * 20}", "GET, DELETE")]:
        answer = await client.put(path)
        assert (answer.status_code, answer.headers["allow"]) == (405, allowed), path
