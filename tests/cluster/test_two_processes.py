"""Two server processes on one PostgreSQL and one Redis: players on different processes
duel, spectate each other and see lobby changes; the action log decides seq races."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import httpx

from bench.bot import choose
from bench.client import DuelClient, seat_pair, signup
from tests.support.cluster import Cluster


async def until(client: DuelClient, kind: str, timeout: float = 10.0,
                where: Callable[[dict[str, Any]], bool] = lambda frame: True, **fields: Any
                ) -> dict[str, Any]:
    """Wait until `client` has received a frame of `kind` with `fields` (and `where`)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        for frame in client.frames:
            if (frame.get("type") == kind and all(frame.get(k) == v for k, v in fields.items())
                    and where(frame)):
                return frame
        if asyncio.get_running_loop().time() > deadline:
            seen = [f.get("type") for f in client.frames]
            raise AssertionError(f"no {kind} {fields} within {timeout}s; got {seen}")
        await asyncio.sleep(0.02)


async def play(client: DuelClient, match_id: int, snapshot: dict[str, Any], steps: int,
               rng: random.Random) -> dict[str, Any]:
    """`steps` acknowledged bot actions; returns the last ack."""
    view, seq, last = snapshot["view"], snapshot["seq"], snapshot
    for _ in range(steps):
        action = choose(view, manual_flip=True, rng=rng)
        assert action is not None
        answer, _ = await client.act(match_id, seq + 1, action)
        assert answer["type"] == "ack", answer
        view, seq, last = answer["view"], answer["seq"], answer
    return last


async def test_players_on_different_processes_duel_spectate_and_see_the_lobby(
    pg_cluster: Cluster,
) -> None:
    one, two = pg_cluster.servers
    async with httpx.AsyncClient(base_url=one.http, timeout=10) as http:
        ann, bob, eve, fay = [await signup(http, n) for n in ("Ann", "Bob", "Eve", "Fay")]
        match_id = await seat_pair(http, ann, bob)
    ann_ws = await DuelClient.open(one.ws, ann)
    bob_ws = await DuelClient.open(two.ws, bob)
    eve_ws = await DuelClient.open(two.ws, eve)
    try:
        # Lobby: Eve listens on process two, Fay opens a table through process one.
        await eve_ws.ws.send('{"type": "subscribe_lobby"}')
        await eve_ws.request({"type": "ping"})
        async with httpx.AsyncClient(base_url=one.http, timeout=10) as http:
            created = await http.post("/api/tables", json={"preset": "duel", "suits": 1},
                                      headers={"Authorization": f"Bearer {fay.token}"})
            assert created.status_code == 201
        news = await until(eve_ws, "lobby", change="table_created")
        assert news["table"]["id"] == created.json()["id"]

        # The duel: Ann on one, Bob on two, the same deal.
        ann_snap = await ann_ws.open_game(match_id)
        bob_snap = await bob_ws.open_game(match_id)
        assert ann_snap["view"] == bob_snap["view"]
        assert bob_snap["opponent"]["status"] == "playing"
        # Each process knows the opponent connected to the other one is online.
        assert ann_snap["opponent"]["online"] is True and bob_snap["opponent"]["online"] is True
        rng = random.Random(5)
        await play(ann_ws, match_id, ann_snap, 6, rng)
        progress = await until(bob_ws, "progress", match_id=match_id,
                               where=lambda f: f["progress"]["player_id"] == ann.id
                               and f["progress"]["actions"] == 6)
        assert progress["progress"]["status"] == "playing"

        # Bob may not watch Ann yet; once his game is over he may, across processes.
        refused, _ = await bob_ws.request({"type": "spectate", "match_id": match_id})
        assert refused["type"] == "error" and refused["code"] == "spectate_refused"
        bob_last = await play(bob_ws, match_id, bob_snap, 2, rng)
        done, _ = await bob_ws.request({"type": "finish", "match_id": match_id,
                                        "seq": bob_last["seq"] + 1})
        assert done["type"] == "ack" and done["status"] == "finished"
        watched, _ = await bob_ws.request({"type": "spectate", "match_id": match_id})
        assert watched["type"] == "snapshot" and watched["role"] == "spectator"
        assert watched["seq"] == 6
        ann_last = await play(ann_ws, match_id, {"view": watched["view"], "seq": 6}, 3, rng)
        live = await until(bob_ws, "watch", seq=ann_last["seq"])
        assert live["view"] == ann_last["view"]

        # Ann ends too: both learn the result, wherever they are connected.
        ended, _ = await ann_ws.request({"type": "finish", "match_id": match_id,
                                         "seq": ann_last["seq"] + 1})
        assert ended["type"] == "ack"
        for client in (ann_ws, bob_ws):
            result = await until(client, "match_result", match_id=match_id)
            assert {r["player_id"] for r in result["results"]} == {ann.id, bob.id}
    finally:
        for client in (ann_ws, bob_ws, eve_ws):
            await client.close()


async def ann_on_both(cluster: Cluster) -> tuple[int, DuelClient, DuelClient, dict[str, Any]]:
    """Ann seated against Bob, connected once to each process, her game opened in both:
    the match, the two connections and her snapshot."""
    one, two = cluster.servers
    async with httpx.AsyncClient(base_url=one.http, timeout=10) as http:
        ann, bob = await signup(http, "Ann"), await signup(http, "Bob")
        match_id = await seat_pair(http, ann, bob)
    here, there = await DuelClient.open(one.ws, ann), await DuelClient.open(two.ws, ann)
    snapshot = await here.open_game(match_id)
    await there.open_game(match_id)
    return match_id, here, there, snapshot


async def test_two_processes_never_both_accept_the_same_seq(pg_cluster: Cluster) -> None:
    match_id, here, there, snapshot = await ann_on_both(pg_cluster)
    try:
        rng = random.Random(11)
        view, seq = snapshot["view"], snapshot["seq"]
        for _ in range(8):
            # The same seq, two different actions when there are two, at the same moment.
            first = choose(view, manual_flip=True, rng=rng)
            second = next((other for other in (choose(view, manual_flip=True, rng=rng)
                                               for _ in range(10)) if other != first), first)
            assert first is not None and second is not None
            (a, _), (b, _) = await asyncio.gather(
                here.act(match_id, seq + 1, first), there.act(match_id, seq + 1, second)
            )
            # Exactly one step applied (a tab may take the other's ack of the very same
            # action for its own answer: the same step either way).
            applied = {json.dumps([x["seq"], x["view"]], sort_keys=True) for x in (a, b)
                       if x["type"] == "ack"}
            assert len(applied) == 1, (a, b)
            winner = a if a["type"] == "ack" else b
            loser = b if winner is a else a
            # The loser resynced: it answers with the winner's position, applied once.
            assert loser["view"] == winner["view"], (a, b)
            if first != second:  # a clear refusal for the other action, with the next seq
                assert loser["type"] == "reject" and loser["code"] == "seq_taken", (a, b)
                assert loser["next_seq"] == seq + 2
            view, seq = winner["view"], winner["seq"]
        # Both processes agree on the game, and it holds exactly `seq` actions.
        again_here = await here.open_game(match_id)
        again_there = await there.open_game(match_id)
        assert again_here["seq"] == again_there["seq"] == seq == 8
        assert again_here["view"] == again_there["view"] == view
    finally:
        await here.close()
        await there.close()


async def test_a_second_tab_on_another_process_follows_live_and_its_moves_count(
        pg_cluster: Cluster) -> None:
    """Ann plays in two tabs, one on each process: each tab's step reaches the other
    live (its ack, unasked), and the other tab's next move, with the next seq, is applied
    even when its process's copy of the match has not heard of the step yet."""
    match_id, here, there, snapshot = await ann_on_both(pg_cluster)
    try:
        rng = random.Random(5)
        view, seq = snapshot["view"], snapshot["seq"]
        for turn in range(8):
            actor, follower = (here, there) if turn % 2 == 0 else (there, here)
            action = choose(view, manual_flip=True, rng=rng)
            assert action is not None
            answer, _ = await actor.act(match_id, seq + 1, action)
            assert answer["type"] == "ack" and not answer["duplicate"], answer
            news = await until(follower, "ack", seq=seq + 1)  # live, never asked for
            assert news["view"] == answer["view"] and news["score"] == answer["score"]
            assert "from_stream" not in news
            view, seq = answer["view"], answer["seq"]
        # The ack's echo may reach a tab before the match's `sync:` news reaches that tab's
        # process: opening there reads the log's head and answers as the log says.
        again_here = await here.open_game(match_id)
        again_there = await there.open_game(match_id)
        assert again_here["seq"] == again_there["seq"] == seq == 8
        assert again_here["view"] == again_there["view"] == view
    finally:
        await here.close()
        await there.close()
