"""What several processes share beyond the bus: presence, the connection cap per player,
and the end of games whose process died (real processes, PostgreSQL, Redis)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

from bench.client import DuelClient, Player, seat_pair, signup
from tests.cluster.test_two_processes import until
from tests.support.cluster import QUICK, Cluster
from tests.support.duel_layouts import near_finished_layout

TTL = float(QUICK["SPIDER_PRESENCE_TTL_SECONDS"])
HEARTBEAT = float(QUICK["SPIDER_PRESENCE_HEARTBEAT_SECONDS"])


def auth(player: Player) -> dict[str, str]:
    return {"Authorization": f"Bearer {player.token}"}


async def friend_online(http: httpx.AsyncClient, me: Player, friend: Player) -> bool:
    listed = await http.get("/api/me/friends", headers=auth(me))
    assert listed.status_code == 200, listed.text
    [contact] = [c for c in listed.json()["items"] if c["id"] == friend.id]
    return bool(contact["online"])


async def rest_says(http: httpx.AsyncClient, me: Player, friend: Player, online: bool,
                    timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while await friend_online(http, me, friend) != online:
        assert time.monotonic() < deadline, f"friend list never said online={online}"
        await asyncio.sleep(0.05)


def presence_events(client: DuelClient, player: Player) -> list[bool]:
    return [f["online"] for f in client.frames
            if f.get("type") == "presence" and f.get("player_id") == player.id]


async def refused(url: str, player: Player) -> dict[str, Any] | None:
    """Open a socket; the error frame if the server refuses it, else None (closed again)."""
    async with connect(f"{url}/ws", ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": player.token}))
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return first if first.get("type") == "error" else None


async def test_presence_and_the_connection_cap_are_shared_and_survive_a_crash(
    quick_pg_cluster: Cluster,
) -> None:
    one, two = quick_pg_cluster.servers
    async with httpx.AsyncClient(base_url=one.http, timeout=10) as http:
        ann, bob = await signup(http, "Ann"), await signup(http, "Bob")
        for me, other in ((ann, "Bob"), (bob, "Ann")):  # asked, then asked back: friends
            added = await http.post("/api/me/friends", json={"name": other}, headers=auth(me))
            assert added.status_code == 201, added.text
        ann_ws = await DuelClient.open(one.ws, ann)
        await ann_ws.ws.send(json.dumps({"type": "watch_presence", "player_ids": [bob.id]}))
        await until(ann_ws, "presence", player_id=bob.id, online=False)
        assert not await friend_online(http, ann, bob)

        # Bob comes and goes on the other process: Ann's process knows, REST and live.
        bob_ws = await DuelClient.open(two.ws, bob)
        await rest_says(http, ann, bob, online=True)
        await until(ann_ws, "presence", player_id=bob.id, online=True)
        await bob_ws.close()
        await rest_says(http, ann, bob, online=False)
        # REST may say it before the live event reaches Ann's socket: wait for the event.
        await until(ann_ws, "presence", where=lambda f: f["player_id"] == bob.id
                    and not f["online"] and len(presence_events(ann_ws, bob)) == 3)
        assert presence_events(ann_ws, bob) == [False, True, False]

        # The cap (4 per player) counts both processes.
        held = [await DuelClient.open(server.ws, bob) for server in (one, one, two, two)]
        for server in (one, two):
            error = await refused(server.ws, bob)
            assert error is not None and error["code"] == "too_many_connections", error
        await held.pop(0).close()  # one on process one ends: a slot is free anywhere
        await rest_says(http, ann, bob, online=True)
        again = await DuelClient.open(two.ws, bob)
        for client in [held.pop(0), again]:
            await client.close()
        # Bob is now connected on process two only (two sockets). It dies.
        assert len(presence_events(ann_ws, bob)) == 4  # no event while he stayed online
        two.process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        await until(ann_ws, "presence", timeout=TTL + 5, where=lambda f: f["player_id"] == bob.id
                    and not f["online"] and len(presence_events(ann_ws, bob)) == 5)
        took = time.monotonic() - killed
        # The bound: ttl for the global state, + one heartbeat for the event (+ slack for
        # a loaded test machine).
        assert took <= TTL + HEARTBEAT + 2.0, took
        assert not await friend_online(http, ann, bob)
        # Not locked out: the crashed process's two sockets no longer count.
        back = [await DuelClient.open(one.ws, bob) for _ in range(4)]
        await until(ann_ws, "presence", where=lambda f: f["player_id"] == bob.id
                    and f["online"] and len(presence_events(ann_ws, bob)) == 6)
        for client in [*back, ann_ws]:
            await client.close()
        for client in held:
            await client.ws.close()  # its server is gone; nothing to wait for


async def test_a_dead_process_overdue_games_are_ended_by_another(
    quick_pg_cluster: Cluster,
) -> None:
    one, two = quick_pg_cluster.servers
    limit_s = 2
    async with httpx.AsyncClient(base_url=one.http, timeout=10) as http:
        ann, bob = await signup(http, "Ann"), await signup(http, "Bob")
        match_id = await seat_pair(http, ann, bob)
        placed = await http.put(f"/api/test/matches/{match_id}/layout", headers=auth(ann),
                                json={"layout": near_finished_layout(),
                                      "time_limit_seconds": limit_s})
        assert placed.status_code == 200, placed.text
    clients = [await DuelClient.open(one.ws, player) for player in (ann, bob)]
    for client in clients:
        await client.open_game(match_id)
    opened = time.monotonic()
    one.process.send_signal(signal.SIGKILL)  # and it is never restarted
    for client in clients:
        await client.ws.close()

    async with httpx.AsyncClient(base_url=two.http, timeout=10) as http:
        while True:
            result = (await http.get(f"/api/matches/{match_id}")).json()
            if result["status"] == "finished":
                break
            assert time.monotonic() - opened < limit_s + 10, result
            await asyncio.sleep(0.1)
    # Ended after the deadline (not before), at the deadline, by the other process.
    assert time.monotonic() - opened >= limit_s
    assert {g["status"] for g in result["games"]} == {"timed_out"}
    assert {g["time_used_ms"] for g in result["games"]} == {limit_s * 1000}
    # The sweeper logs once the load that ended and settled the match has returned: the
    # result can be read over REST a moment before that line is written.
    for _ in range(50):
        if "ended overdue games" in quick_pg_cluster.logs():
            break
        await asyncio.sleep(0.1)
    assert "ended overdue games" in quick_pg_cluster.logs()
