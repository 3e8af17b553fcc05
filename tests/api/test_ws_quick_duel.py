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


async def test_nobody_waits_i_play_at_once_and_see_my_opponent_arrive(
    live_server: LiveServer,
) -> None:
    log = FrameLog()
    async with httpx.AsyncClient(base_url=live_server.http, timeout=10) as http:
        ann, bob = [await signup(http, name) for name in ("Ann", "Bob")]
        asked = await http.post("/api/quick-duel", json={"suits": 1}, headers=ann.auth)
        assert asked.status_code == 201 and not asked.json()["paired"]
        match = asked.json()["table"]["match_id"]
        assert match is not None  # made at once: I play now
        her = Client(live_server, ann, log)
        await her.connect()
        snap = await her.request({"type": "open_game", "match_id": match}, "snapshot")
        assert snap["status"] == "playing" and snap["opponent"] is None
        await her.request({"type": "action", "match_id": match, "seq": 1,
                           "action": {"op": "deal"}}, "ack")
        await her.request({"type": "finish", "match_id": match, "seq": 2}, "ack")
        # Her game is over, nobody is paired yet: nothing tells the deal to whoever comes.
        alone = (await http.get(f"/api/matches/{match}")).json()
        assert alone["status"] == "playing" and alone["deal_number"] is None
        assert alone["play"] is None and alone["difficulty"] is None
        game = alone["games"][0]["game_id"]
        for hidden in (f"/api/games/{game}/record", f"/api/replays/duel/{game}"):
            refused = await http.get(hidden, headers=bob.auth)
            assert refused.status_code == 409, (hidden, refused.text)

        # Bob asks while Ann plays: paired into her match; she sees him at once.
        met = await http.post("/api/quick-duel", json={"suits": 1}, headers=bob.auth)
        assert met.json()["paired"] and met.json()["table"]["match_id"] == match
        arrived = await her.until("progress", match_id=match)
        assert arrived["progress"]["player_id"] == bob.id
        assert arrived["progress"]["status"] == "not_started"
        him = Client(live_server, bob, log)
        await him.connect()
        his = await him.request({"type": "open_game", "match_id": match}, "snapshot")
        # The same deal from its start; of Ann's game only her progress, never her cards.
        assert his["seq"] == 0 and his["view"]["stock"] == snap["view"]["stock"]
        assert his["opponent"]["player_id"] == ann.id and "view" not in his["opponent"]
        assert his["opponent"]["status"] == "finished"
        assert "seed" not in str(his) and "layout" not in str(his)
        for hidden in (f"/api/games/{game}/record", f"/api/replays/duel/{game}"):
            assert (await http.get(hidden, headers=bob.auth)).status_code == 409
        rest = (await http.get(f"/api/matches/{match}")).json()
        assert rest["status"] == "playing" and rest["deal_number"] is None
        await him.request({"type": "finish", "match_id": match, "seq": 1}, "ack")
        result = await her.until("match_result", match_id=match)
        assert {r["player_id"] for r in result["results"]} == {ann.id, bob.id}
        assert (await http.get(f"/api/matches/{match}")).json()["status"] == "finished"
        for client in (her, him):
            await client.close()
