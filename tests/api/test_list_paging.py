"""Every list that can grow is paged (docs/api.md): friends, ignores, invites, my tables."""

import httpx
import pytest

from tests.api.test_invites import invite
from tests.api.test_tables import create_table
from tests.support.api import User, assert_problem, befriend, signup

# Whole lists on purpose: fixed catalogues (bands, the 15 badges, a player's badges).
UNPAGED = {"/api/bands", "/api/badges", "/api/players/{player_id}/badges"}


async def _pages(client: httpx.AsyncClient, path: str, user: User, size: int
                 ) -> list[dict]:  # type: ignore[type-arg]
    """Every page of ``path`` at ``size`` per page, checking the page numbers."""
    pages, number = [], 1
    while True:
        response = await client.get(path, params={"page": number, "page_size": size},
                                    headers=user.auth)
        assert response.status_code == 200, response.text
        body = response.json()
        assert (body["page"], body["page_size"]) == (number, size)
        pages.append(body)
        if number * size >= body["total"]:
            return pages
        number += 1


def _names(pages: list[dict], key: str) -> list[list[str]]:  # type: ignore[type-arg]
    return [[item[key] for item in page["items"]] for page in pages]


async def test_friends_and_ignores_come_in_pages(client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    for name in ("Cid", "Bob", "Dan"):
        await befriend(client, ann, await signup(client, name))
        await client.post("/api/me/ignores", json={"name": name}, headers=ann.auth)
    for path in ("/api/me/friends", "/api/me/ignores"):
        pages = await _pages(client, path, ann, 2)
        assert _names(pages, "name") == [["Bob", "Cid"], ["Dan"]], path
        assert {page["total"] for page in pages} == {3}
        beyond = await client.get(path, params={"page": 3, "page_size": 2}, headers=ann.auth)
        assert beyond.json()["items"] == [] and beyond.json()["total"] == 3


async def test_invites_and_my_tables_come_in_pages(client: httpx.AsyncClient) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    await befriend(client, ann, bob)
    made = [await create_table(client, ann) for _ in range(3)]
    codes = [(await invite(client, ann, table["id"], "Bob"))["code"] for table in made]
    pages = await _pages(client, "/api/me/invites", bob, 2)
    assert _names(pages, "code") == [codes[:0:-1], codes[:1]]  # newest first
    pages = await _pages(client, "/api/tables/mine", ann, 2)
    ids = [table["id"] for table in made]
    assert _names(pages, "id") == [ids[:0:-1], ids[:1]]


@pytest.mark.parametrize("path", ["/api/me/friends", "/api/me/ignores", "/api/me/invites",
                                  "/api/tables/mine"])
@pytest.mark.parametrize("query", [{"page": 0}, {"page_size": 0}, {"page_size": 101},
                                   {"page": "x"}])
async def test_bad_paging_is_refused(client: httpx.AsyncClient, path: str,
                                     query: dict[str, object]) -> None:
    ann = await signup(client, "Ann")
    assert_problem(await client.get(path, params=query, headers=ann.auth), 422,
                   "validation_error")


async def test_every_growing_list_is_paged(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    bare = set()
    for path, item in schema["paths"].items():
        answer = item.get("get", {}).get("responses", {}).get("200", {})
        body = answer.get("content", {}).get("application/json", {}).get("schema", {})
        if body.get("type") == "array":
            bare.add(path)
        elif path not in UNPAGED and "$ref" in body and body["$ref"].endswith("Page"):
            params = {p["name"] for p in item["get"].get("parameters", [])}
            assert {"page", "page_size"} <= params, path
    assert bare == UNPAGED
