"""Live lobby, direct invites and presence over a real server."""

from typing import Any

import httpx

from tests.support.live import Account, Client, FrameLog, LiveServer, signup


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

        await bob_ws.close()
        assert (await ann_ws.until("presence"))["online"] is False
        friends = (await http.get("/api/me/friends", headers=ann.auth)).json()["items"]
        assert friends[0]["online"] is False
        await ann_ws.close()
        await zed_ws.close()
