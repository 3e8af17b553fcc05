"""Quick duel over a real server (docs/api.md, "Quick duel"): the lobby learns live how many
players are looking; a player who asked and went away is paired later, plays after the
other, and the match settles only when both games are over."""

from __future__ import annotations

import httpx

from tests.support.live import Client, FrameLog, LiveServer, signup


async def test_paired_later_plays_later_and_the_match_settles_then(
    live_server: LiveServer,
) -> None:
    log = FrameLog()
    async with httpx.AsyncClient(base_url=live_server.http, timeout=10) as http:
        ann, bob, eve = [await signup(http, name) for name in ("Ann", "Bob", "Eve")]
        watcher = Client(live_server, eve, log)
        await watcher.connect()
        await watcher.send({"type": "subscribe_lobby"})
        await watcher.send({"type": "ping"})
        await watcher.until("pong")

        # Ann asks while nobody waits, and goes away (no connection of hers is open).
        asked = await http.post("/api/quick-duel", json={"suits": 1}, headers=ann.auth)
        assert asked.status_code == 201 and not asked.json()["paired"]
        assert (await watcher.until("quick_looking"))["looking"] == 1

        # Bob asks later: paired with Ann; his game starts at once.
        met = await http.post("/api/quick-duel", json={"suits": 1}, headers=bob.auth)
        assert met.status_code == 200 and met.json()["paired"]
        assert (await watcher.until("quick_looking"))["looking"] == 0
        match = met.json()["table"]["match_id"]
        player = Client(live_server, bob, log)
        await player.connect()
        mine = await player.request({"type": "open_game", "match_id": match}, "snapshot")
        assert mine["opponent"]["status"] == "not_started"
        done = await player.request({"type": "finish", "match_id": match, "seq": 1}, "ack")
        assert done["status"] == "finished"
        rest = (await http.get(f"/api/matches/{match}")).json()
        assert rest["status"] == "playing"  # not settled: Ann has not played
        assert rest["start_deadline"] is not None

        # Ann comes back, finds her duel, plays it: now it settles.
        back = await http.post("/api/quick-duel", json={"suits": 1}, headers=ann.auth)
        assert back.json()["paired"] and back.json()["table"]["match_id"] == match
        her = Client(live_server, ann, log)
        await her.connect()
        snap = await her.request({"type": "open_game", "match_id": match}, "snapshot")
        assert snap["status"] == "playing" and snap["opponent"]["status"] == "finished"
        await her.request({"type": "finish", "match_id": match, "seq": 1}, "ack")
        result = await her.until("match_result", match_id=match)
        assert {r["player_id"] for r in result["results"]} == {ann.id, bob.id}
        for client in (watcher, player, her):
            await client.close()
