"""Live lobby, direct invites and presence over a real server."""

from typing import Any

import httpx

from tests.support.live import Account, Client, FrameLog, LiveServer, make_duel, signup


async def create_table(
    http: httpx.AsyncClient, owner: Account, *, public: bool
) -> dict[str, Any]:
    response = await http.post("/api/tables", headers=owner.auth, json={
        "preset": "duel", "suits": 1, "time_limit_seconds": 600, "level": "any",
        "public": public, "rated": False,
    })
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_lobby_subscribers_see_tables_come_fill_and_close(
    live_server: LiveServer,
) -> None:
    log = FrameLog()
    async with httpx.AsyncClient(base_url=live_server.http, timeout=10) as http:
        ann, bob, eve = [await signup(http, name) for name in ("Ann", "Bob", "Eve")]
        watcher, owner = Client(live_server, eve, log), Client(live_server, ann, log)
        await watcher.connect()
        await owner.connect()
        await watcher.send({"type": "subscribe_lobby"})
        await watcher.send({"type": "ping"})
        await watcher.until("pong")  # the subscription is in place

        table = await create_table(http, ann, public=True)
        created = await watcher.until("lobby")
        assert created["change"] == "table_created" and created["table"]["id"] == table["id"]

        joined = await http.post(f"/api/tables/{table['id']}/join", headers=bob.auth)
        assert joined.status_code == 200
        taken = await watcher.until("lobby")
        assert taken["change"] == "seat_taken" and taken["table"]["status"] == "full"
        told = await owner.until("lobby", change="seat_taken")  # the owner, seated, learns too
        assert told["table"]["match_id"] == joined.json()["match_id"]

        lonely = await create_table(http, ann, public=True)
        await watcher.until("lobby", change="table_created")
        left = await http.post(f"/api/tables/{lonely['id']}/leave", headers=ann.auth)
        assert left.status_code == 200
        closed = await watcher.until("lobby", change="table_closed")
        assert closed["table"]["id"] == lonely["id"]

        hidden = await create_table(http, ann, public=False)
        await watcher.send({"type": "unsubscribe_lobby"})
        await watcher.send({"type": "ping"})
        await watcher.until("pong")
        lobby_tables = [f["table"]["id"] for who, f in log.frames
                        if who == eve.id and f["type"] == "lobby"]
        assert hidden["id"] not in lobby_tables  # private tables stay out of the lobby
        assert lobby_tables == [table["id"], table["id"], lonely["id"], lonely["id"]]
        await watcher.close()
        await owner.close()


async def test_an_online_friend_gets_the_invite_at_once_and_presence_is_live(
    live_server: LiveServer,
) -> None:
    log = FrameLog()
    async with httpx.AsyncClient(base_url=live_server.http, timeout=10) as http:
        ann, bob = await signup(http, "Ann"), await signup(http, "Bob")
        for me, friend in ((ann, bob), (bob, ann)):
            added = await http.post("/api/me/friends", headers=me.auth, json={"name": friend.name})
            assert added.status_code == 201, added.text
        stranger = await signup(http, "Zed")
        ann_ws, bob_ws = Client(live_server, ann, log), Client(live_server, bob, log)
        zed_ws = Client(live_server, stranger, log)
        await zed_ws.connect()
        await ann_ws.connect()
        await ann_ws.send({"type": "watch_presence", "player_ids": [bob.id, stranger.id]})
        await ann_ws.send({"type": "ping"})
        await ann_ws.until("pong")
        told = [f for who, f in log.frames if who == ann.id and f["type"] == "presence"]
        assert [(f["player_id"], f["online"]) for f in told] == [(bob.id, False)]  # no Zed
        ann_ws.drop_pending()

        await bob_ws.connect()
        assert (await ann_ws.until("presence"))["online"] is True
        friends = (await http.get("/api/me/friends", headers=ann.auth)).json()["items"]
        assert [(f["name"], f["online"]) for f in friends] == [(bob.name, True)]

        table = await create_table(http, ann, public=False)
        sent = await http.post(f"/api/tables/{table['id']}/invites", headers=ann.auth,
                               json={"to": bob.name})
        assert sent.status_code == 201, sent.text
        invite = await bob_ws.until("invite", timeout=5)
        assert invite["invite"]["code"] == sent.json()["code"]
        assert invite["invite"]["inviter_name"] == ann.name
        # Declined: Ann, who sent it, is told at once (her table said "sent" for good).
        no = await http.post(f"/api/invites/{invite['invite']['code']}/decline",
                             headers=bob.auth)
        assert no.status_code == 200, no.text
        told = await ann_ws.until("invite", timeout=5)
        assert (told["invite"]["status"], told["invite"]["invitee_name"],
                told["invite"]["table_id"]) == ("declined", bob.name, table["id"])

        # Invited again, then Ann leaves her table, which closes: the invitation goes with
        # it, live and in Bob's list (it stayed there, and Accept answered 409).
        again = await http.post(f"/api/tables/{table['id']}/invites", headers=ann.auth,
                                json={"to": bob.name})
        assert again.status_code == 201, again.text
        await bob_ws.until("invite", timeout=5)
        listed = (await http.get("/api/me/invites", headers=bob.auth)).json()["items"]
        assert [i["code"] for i in listed] == [again.json()["code"]]
        left = await http.post(f"/api/tables/{table['id']}/leave", headers=ann.auth)
        assert left.status_code == 200 and left.json()["status"] == "closed", left.text
        withdrawn = await bob_ws.until("invite", timeout=5)
        assert (withdrawn["invite"]["code"], withdrawn["invite"]["status"]) == (
            again.json()["code"], "cancelled")
        assert (await http.get("/api/me/invites", headers=bob.auth)).json()["items"] == []
        accepted = await http.post(f"/api/invites/{again.json()['code']}/accept",
                                   headers=bob.auth)
        assert (accepted.status_code, accepted.json()["code"]) == (409, "invite_closed")

        await bob_ws.close()
        assert (await ann_ws.until("presence"))["online"] is False
        friends = (await http.get("/api/me/friends", headers=ann.auth)).json()["items"]
        assert friends[0]["online"] is False
        await ann_ws.close()
        await zed_ws.close()


async def test_a_table_left_during_its_match_is_back_in_the_lobby_once_the_match_is_settled(
    live_server: LiveServer,
) -> None:
    """Bob finishes and leaves while Ann plays: the table stays out of the lobby ("full")
    until Ann's game ends too; then lobby watchers and Ann learn at once that it is open."""
    async with make_duel(live_server) as duel:
        eve = await signup(duel.http, "Eve")
        watcher = duel.client(eve)
        ann, bob = duel.client(duel.ann), duel.client(duel.bob)
        for client in (watcher, ann, bob):
            await client.connect()
        await watcher.send({"type": "subscribe_lobby"})
        await watcher.send({"type": "ping"})
        await watcher.until("pong")
        match = duel.match_id
        for client in (ann, bob):
            await client.request({"type": "open_game", "match_id": match}, "snapshot")
        await bob.request({"type": "finish", "match_id": match, "seq": 1}, "ack")
        mine = await duel.http.get("/api/tables/mine", headers=duel.bob.auth)
        table_id = mine.json()["items"][0]["id"]
        left = await duel.http.post(f"/api/tables/{table_id}/leave", headers=duel.bob.auth)
        assert left.status_code == 200, left.text
        still_full = await watcher.until("lobby", change="table_updated")
        assert still_full["table"]["status"] == "full"

        await ann.request({"type": "finish", "match_id": match, "seq": 1}, "ack")
        await ann.until("match_result")
        reopened = await watcher.until("lobby", change="table_updated")
        assert reopened["table"]["id"] == table_id
        assert reopened["table"]["status"] == "open"
        assert [seat["player_id"] for seat in reopened["table"]["seats"]] == [duel.ann.id]
        assert (await ann.until("lobby", change="table_updated"))["table"]["status"] == "full"
        told = await ann.until("lobby", change="table_updated")  # Bob's leave, then this
        assert told["table"]["status"] == "open"
        listed = await duel.http.get("/api/tables", headers=eve.auth)
        assert table_id in [table["id"] for table in listed.json()["items"]]
        for client in (watcher, ann, bob):
            await client.close()
