"""Signing up, tokens, player info; bad names and tokens are refused clearly."""

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.support.api import assert_problem, make_settings, signup


async def test_signup_returns_a_token_that_authenticates(client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    response = await client.get("/api/players/me", headers=ann.auth)
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "Ann" and body["id"] == ann.id
    assert (body["games_played"], body["won"], body["lost"], body["streak"]) == (0, 0, 0, 0)
    assert [r["suits"] for r in body["ratings"]] == [1, 2, 4]
    assert body["ratings"][0]["rating"] == 1500 and body["ratings"][0]["band"] == "intermediate"


async def test_names_are_unique_whatever_the_case(client: httpx.AsyncClient) -> None:
    await signup(client, "Ann_1")
    assert_problem(await client.post("/api/players", json={"name": "ann_1"}), 409, "name_taken")


@pytest.mark.parametrize("name", ["ab", "x" * 21, "1abc", "ann bob", "añna", "a\x00bc", ""])
async def test_bad_names_are_refused_and_create_nothing(
    client: httpx.AsyncClient, name: str
) -> None:
    body = assert_problem(await client.post("/api/players", json={"name": name}), 422)
    assert body["code"] == "validation_error" and "name" in body["detail"]
    assert_problem(await client.get("/api/players/1"), 404, "player_not_found")


@pytest.mark.parametrize("payload", [None, [], {"name": 5}, {"name": "Ann", "x": 1}, {}])
async def test_malformed_bodies_get_422(client: httpx.AsyncClient, payload: object) -> None:
    assert_problem(await client.post("/api/players", json=payload), 422, "validation_error")


async def test_not_json_at_all_gets_422(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/players", content=b"{nope",
                                 headers={"content-type": "application/json"})
    assert_problem(response, 422, "validation_error")


@pytest.mark.parametrize("header", [None, "Bearer nonsense", "Basic abc", "Bearer "])
async def test_missing_or_forged_tokens_get_401(
    client: httpx.AsyncClient, header: str | None
) -> None:
    headers = {"Authorization": header} if header is not None else {}
    response = await client.get("/api/players/me", headers=headers)
    assert_problem(response, 401)
    assert response.headers.get("www-authenticate") == "Bearer"


async def test_a_token_signed_with_another_key_is_refused(
    client: httpx.AsyncClient, database_url: str
) -> None:
    ann = await signup(client, "Ann")
    other = create_app(make_settings(database_url, secret_key="another-key"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=other),
                                 base_url="http://test") as elsewhere:
        assert_problem(await elsewhere.get("/api/players/me", headers=ann.auth), 401,
                       "bad_token")
    await other.state.db_engine.dispose()


async def test_player_info_by_id_and_by_name(client: httpx.AsyncClient) -> None:
    bob = await signup(client, "Bob-7")
    by_id = (await client.get(f"/api/players/{bob.id}")).json()
    by_name = (await client.get("/api/players/by-name/bob-7")).json()
    assert by_id == by_name and by_id["name"] == "Bob-7"
    assert_problem(await client.get("/api/players/by-name/nobody"), 404, "player_not_found")
    assert_problem(await client.get("/api/players/0"), 422, "validation_error")
    assert_problem(await client.get(f"/api/players/{2**40}"), 422, "validation_error")


async def test_creating_players_is_rate_limited_per_address(database_url: str) -> None:
    app: FastAPI = create_app(make_settings(database_url, player_create_burst=2,
                                            player_create_per_minute=1.0))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://test") as client:
        await signup(client, "One")
        await signup(client, "Two")
        response = await client.post("/api/players", json={"name": "Three"})
        assert_problem(response, 429, "rate_limited")
        assert int(response.headers["retry-after"]) >= 1
        assert_problem(await client.get("/api/players/by-name/Three"), 404)
    await app.state.db_engine.dispose()


async def test_unknown_routes_and_methods_are_problems_too(client: httpx.AsyncClient) -> None:
    assert_problem(await client.get("/api/nothing-here"), 404, "not_found")
    assert_problem(await client.delete("/api/players"), 405, "method_not_allowed")


async def test_search_finds_players_by_the_start_of_their_name(
    client: httpx.AsyncClient,
) -> None:
    for name in ("Alice", "alfred", "Al_x", "Alx", "Bob"):
        await signup(client, name)
    found = (await client.get("/api/players", params={"search": "AL"})).json()
    assert [p["name"] for p in found["items"]] == ["Alx", "Al_x", "Alice", "alfred"]
    assert found["total"] == 4
    # '_' matches itself, not any character; paging keeps the order.
    assert [p["name"] for p in (await client.get(
        "/api/players", params={"search": "al_"})).json()["items"]] == ["Al_x"]
    page2 = (await client.get("/api/players",
                              params={"search": "al", "page": 2, "page_size": 3})).json()
    assert [p["name"] for p in page2["items"]] == ["alfred"] and page2["total"] == 4
    assert (await client.get("/api/players", params={"search": "zz"})).json()["items"] == []
    for bad in ("", "a%", "a b", "x" * 21):
        assert_problem(await client.get("/api/players", params={"search": bad}), 422)
    assert_problem(await client.get("/api/players"), 422)
