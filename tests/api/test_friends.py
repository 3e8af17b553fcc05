"""Friends and ignores over REST, and the online flag from the presence hook."""

import httpx
from fastapi import FastAPI

from tests.support.api import assert_problem, befriend, signup


class OnlyOnline:
    def __init__(self, *ids: int) -> None:
        self.ids = set(ids)

    def is_online(self, player_id: int) -> bool:
        return player_id in self.ids


async def test_add_list_remove_friends(client: httpx.AsyncClient, app: FastAPI) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    for other in (cid, bob):
        await befriend(client, ann, other)
    app.state.presence = OnlyOnline(cid.id)
    listed = (await client.get("/api/me/friends", headers=ann.auth)).json()["items"]
    assert [(f["name"], f["online"]) for f in listed] == [("Bob", False), ("Cid", True)]
    # Mutual: Bob's list holds Ann.
    listed = (await client.get("/api/me/friends", headers=bob.auth)).json()["items"]
    assert [f["name"] for f in listed] == ["Ann"]
    response = await client.delete(f"/api/me/friends/{bob.id}", headers=ann.auth)
    assert response.status_code == 204
    listed = (await client.get("/api/me/friends", headers=ann.auth)).json()["items"]
    assert [f["name"] for f in listed] == ["Cid"]
    assert (await client.get("/api/me/friends", headers=bob.auth)).json()["items"] == []


async def test_the_older_direct_add_asks_instead(client: httpx.AsyncClient) -> None:
    """``POST /me/friends`` used to add one way (Ann could watch Bob's online flag and
    invite him without his yes); it now asks, as ``POST /me/friend-requests`` does."""
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    asked = await client.post("/api/me/friends", json={"name": "bob"}, headers=ann.auth)
    assert asked.status_code == 201
    assert asked.json()["status"] == "requested" and asked.json()["player"]["id"] == bob.id
    assert (await client.get("/api/me/friends", headers=ann.auth)).json()["items"] == []
    waiting = (await client.get("/api/me/friend-requests", headers=bob.auth)).json()
    assert [r["name"] for r in waiting["incoming"]] == ["Ann"]
    # Bob asking back the same old way says yes: friends both ways.
    back = await client.post("/api/me/friends", json={"name": "Ann"}, headers=bob.auth)
    assert back.status_code == 201 and back.json()["status"] == "friends"
    for me, other in ((ann, "Bob"), (bob, "Ann")):
        listed = (await client.get("/api/me/friends", headers=me.auth)).json()["items"]
        assert [f["name"] for f in listed] == [other]


async def test_friend_errors_change_nothing(client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    bob = await signup(client, "Bob")
    await befriend(client, ann, bob)
    for path in ("/api/me/friends", "/api/me/friend-requests"):
        assert_problem(await client.post(path, json={"name": "Bob"}, headers=ann.auth),
                       409, "already_friend")
        assert_problem(await client.post(path, json={"name": "Ann"}, headers=ann.auth),
                       422, "self")
        assert_problem(await client.post(path, json={"name": "Zed"}, headers=ann.auth),
                       404, "player_not_found")
        assert_problem(await client.post(path, json={"name": "Bob"}), 401)
    assert_problem(await client.delete(f"/api/me/friends/{ann.id}", headers=ann.auth),
                   404, "not_friend")
    listed = (await client.get("/api/me/friends", headers=ann.auth)).json()["items"]
    assert [f["id"] for f in listed] == [bob.id]


async def test_add_list_remove_ignores(client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    bob = await signup(client, "Bob")
    response = await client.post("/api/me/ignores", json={"name": "bob"}, headers=ann.auth)
    assert response.status_code == 201 and response.json()["id"] == bob.id
    assert_problem(await client.post("/api/me/ignores", json={"name": "Bob"},
                                     headers=ann.auth), 409, "already_ignored")
    listed = (await client.get("/api/me/ignores", headers=ann.auth)).json()["items"]
    assert [i["name"] for i in listed] == ["Bob"]
    assert (await client.delete(f"/api/me/ignores/{bob.id}", headers=ann.auth)).status_code \
        == 204
    assert (await client.get("/api/me/ignores", headers=ann.auth)).json()["items"] == []
    assert_problem(await client.delete(f"/api/me/ignores/{bob.id}", headers=ann.auth),
                   404, "not_ignored")
