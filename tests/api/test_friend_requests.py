"""Mutual friends (issue 25): a request the other player accepts or declines, told live;
removing a friend removes both sides; an ignore blocks requests."""

import httpx

from tests.support.api import assert_problem, signup
from tests.support.live import Client, FrameLog, LiveServer
from tests.support.live import signup as live_signup

REQUESTS = "/api/me/friend-requests"


async def names(client: httpx.AsyncClient, auth: dict[str, str]) -> list[str]:
    items = (await client.get("/api/me/friends", headers=auth)).json()["items"]
    return [f["name"] for f in items]


async def pending(client: httpx.AsyncClient, auth: dict[str, str]
                  ) -> tuple[list[str], list[str]]:
    body = (await client.get(REQUESTS, headers=auth)).json()
    return [r["name"] for r in body["incoming"]], [r["name"] for r in body["outgoing"]]


async def test_a_request_accepted_makes_friends_both_ways(client: httpx.AsyncClient) -> None:
    ann, bob = [await signup(client, n) for n in ("Ann", "Bob")]
    sent = await client.post(REQUESTS, json={"name": "bob"}, headers=ann.auth)
    assert sent.status_code == 201, sent.text
    assert sent.json()["status"] == "requested" and sent.json()["player"]["name"] == "Bob"
    assert await pending(client, ann.auth) == ([], ["Bob"])
    assert await pending(client, bob.auth) == (["Ann"], [])
    assert await names(client, ann.auth) == [] and await names(client, bob.auth) == []

    accepted = await client.post(f"{REQUESTS}/{ann.id}/accept", headers=bob.auth)
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["name"] == "Ann"
    assert await names(client, ann.auth) == ["Bob"] and await names(client, bob.auth) == ["Ann"]
    assert await pending(client, ann.auth) == ([], []) == await pending(client, bob.auth)

    # Removing a friend removes both sides.
    removed = await client.delete(f"/api/me/friends/{ann.id}", headers=bob.auth)
    assert removed.status_code == 204
    assert await names(client, ann.auth) == [] and await names(client, bob.auth) == []


async def test_a_request_declined_or_withdrawn_leaves_no_friend(
        client: httpx.AsyncClient) -> None:
    ann, bob = [await signup(client, n) for n in ("Ann", "Bob")]
    await client.post(REQUESTS, json={"name": "Bob"}, headers=ann.auth)
    declined = await client.post(f"{REQUESTS}/{ann.id}/decline", headers=bob.auth)
    assert declined.status_code == 204
    assert await pending(client, ann.auth) == ([], []) == await pending(client, bob.auth)
    assert await names(client, ann.auth) == [] and await names(client, bob.auth) == []
    assert_problem(await client.post(f"{REQUESTS}/{ann.id}/accept", headers=bob.auth),
                   404, "no_friend_request")

    await client.post(REQUESTS, json={"name": "Bob"}, headers=ann.auth)
    withdrawn = await client.delete(f"{REQUESTS}/{bob.id}", headers=ann.auth)
    assert withdrawn.status_code == 204
    assert await pending(client, bob.auth) == ([], [])
    assert_problem(await client.delete(f"{REQUESTS}/{bob.id}", headers=ann.auth),
                   404, "no_friend_request")
    assert_problem(await client.post(f"{REQUESTS}/{bob.id}/decline", headers=ann.auth),
                   404, "no_friend_request")  # my own request is not mine to decline


async def test_asking_back_answers_yes_and_refusals_change_nothing(
        client: httpx.AsyncClient) -> None:
    ann, bob = [await signup(client, n) for n in ("Ann", "Bob")]
    await client.post(REQUESTS, json={"name": "Bob"}, headers=ann.auth)
    assert_problem(await client.post(REQUESTS, json={"name": "Bob"}, headers=ann.auth),
                   409, "request_pending")
    back = await client.post(REQUESTS, json={"name": "Ann"}, headers=bob.auth)
    assert back.status_code == 201 and back.json()["status"] == "friends"
    assert await names(client, ann.auth) == ["Bob"] and await names(client, bob.auth) == ["Ann"]
    assert_problem(await client.post(REQUESTS, json={"name": "Bob"}, headers=ann.auth),
                   409, "already_friend")
    assert_problem(await client.post(REQUESTS, json={"name": "Ann"}, headers=ann.auth),
                   422, "self")
    assert_problem(await client.post(REQUESTS, json={"name": "Zed"}, headers=ann.auth), 404)
    assert_problem(await client.post(REQUESTS, json={"name": "Bob"}), 401)
    assert_problem(await client.get(REQUESTS), 401)


async def test_an_ignore_blocks_requests_both_ways_and_ends_those_waiting(
        client: httpx.AsyncClient) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    await client.post(REQUESTS, json={"name": "Ann"}, headers=bob.auth)
    await client.post("/api/me/ignores", json={"name": "Bob"}, headers=ann.auth)
    assert await pending(client, ann.auth) == ([], [])  # Bob's request went with it
    assert await pending(client, bob.auth) == ([], [])
    assert_problem(await client.post(REQUESTS, json={"name": "Ann"}, headers=bob.auth),
                   403, "ignored")
    assert_problem(await client.post(REQUESTS, json={"name": "Bob"}, headers=ann.auth),
                   403, "ignoring")
    assert await pending(client, ann.auth) == ([], [])
    ok = await client.post(REQUESTS, json={"name": "Ann"}, headers=cid.auth)
    assert ok.status_code == 201  # nobody else is blocked


async def test_the_other_player_is_told_live(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.http, timeout=10) as http:

        ann, bob = await live_signup(http, "Ann"), await live_signup(http, "Bob")
        log = FrameLog()
        ann_ws, bob_ws = Client(live_server, ann, log), Client(live_server, bob, log)
        await ann_ws.connect()
        await bob_ws.connect()
        await http.post(REQUESTS, json={"name": bob.name}, headers=ann.auth)
        news = await bob_ws.until("friend")
        assert {k: news[k] for k in ("change", "player_id", "name")} == {
            "change": "requested", "player_id": ann.id, "name": ann.name}
        await http.post(f"{REQUESTS}/{ann.id}/accept", headers=bob.auth)
        assert (await ann_ws.until("friend"))["change"] == "accepted"
        await http.delete(f"/api/me/friends/{bob.id}", headers=ann.auth)
        assert (await bob_ws.until("friend"))["change"] == "removed"
        await http.post(REQUESTS, json={"name": ann.name}, headers=bob.auth)
        assert (await ann_ws.until("friend"))["change"] == "requested"
        await http.post(f"{REQUESTS}/{bob.id}/decline", headers=ann.auth)
        assert (await bob_ws.until("friend"))["change"] == "declined"
        await http.post(REQUESTS, json={"name": ann.name}, headers=bob.auth)
        await ann_ws.until("friend", change="requested")
        await http.delete(f"{REQUESTS}/{ann.id}", headers=bob.auth)
        assert (await ann_ws.until("friend"))["change"] == "cancelled"
        await ann_ws.close()
        await bob_ws.close()
