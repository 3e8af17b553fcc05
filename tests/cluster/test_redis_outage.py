"""A Redis restarted mid-duel under two server processes (a Redis of the test's own:
the shared one is never restarted). The acting player gets exactly one answer per
action; the player watching on the other process gets every step, or a `resync` ahead
of any later step; both processes stay ready (degraded) throughout."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.bot import choose
from bench.client import DuelClient, seat_pair, signup
from tests.cluster.test_two_processes import play, until
from tests.support.cluster import QUICK, Cluster, pg_cluster_on
from tests.support.own_redis import OwnRedis, own_redis  # noqa: F401 (fixture)


@pytest.fixture
def cluster_on_own_redis(own_redis: OwnRedis, tmp_path: Path  # noqa: F811
                         ) -> Iterator[Cluster]:
    yield from pg_cluster_on(tmp_path, own_redis.url, **QUICK)


async def act_once(client: DuelClient, match_id: int, seq: int, view: dict[str, Any],
                   rng: random.Random) -> dict[str, Any]:
    action = choose(view, manual_flip=True, rng=rng)
    assert action is not None
    answer, _ = await client.act(match_id, seq, action)
    assert answer["type"] == "ack", answer
    return answer


async def test_a_redis_restart_mid_duel_doubles_no_answer_and_loses_nothing_silently(
    cluster_on_own_redis: Cluster, own_redis: OwnRedis,  # noqa: F811
) -> None:
    cluster = cluster_on_own_redis
    one, two = cluster.servers
    async with httpx.AsyncClient(base_url=one.http, timeout=10) as http:
        ann, bob = await signup(http, "Ann"), await signup(http, "Bob")
        match_id = await seat_pair(http, ann, bob)
    ann_ws, bob_ws = await DuelClient.open(one.ws, ann), await DuelClient.open(two.ws, bob)
    try:
        ann_snap, bob_snap = await ann_ws.open_game(match_id), await bob_ws.open_game(match_id)
        rng = random.Random(3)
        bob_last = await play(bob_ws, match_id, bob_snap, 1, rng)
        await bob_ws.request({"type": "finish", "match_id": match_id,
                              "seq": bob_last["seq"] + 1})
        watched, _ = await bob_ws.request({"type": "spectate", "match_id": match_id})
        assert watched["type"] == "snapshot"
        last = await play(ann_ws, match_id, ann_snap, 2, rng)
        await until(bob_ws, "watch", seq=last["seq"])

        own_redis.stop()
        for _ in range(4):  # Ann plays on while Redis is away
            last = await act_once(ann_ws, match_id, last["seq"] + 1, last["view"], rng)
        async with httpx.AsyncClient(timeout=5) as http:
            for server in (one, two):  # still in the balancer: degraded, not unavailable
                ready = await http.get(f"{server.http}/readyz")
                assert ready.status_code == 200 and ready.json()["status"] == "degraded"
        own_redis.start()
        await asyncio.sleep(1.0)  # the bus reconnects; its gap markers go out
        for _ in range(2):
            last = await act_once(ann_ws, match_id, last["seq"] + 1, last["view"], rng)
        await until(bob_ws, "watch", seq=last["seq"])

        # Ann: exactly one answer per action, never an error after an ack.
        answers = [f for f in ann_ws.frames if f.get("type") in ("ack", "reject", "error")]
        assert [f["seq"] for f in answers if f["type"] == "ack"] == list(range(1, 9))
        assert [f for f in answers if f["type"] != "ack"] == []
        # Bob: every step of the outage, or a resync ahead of the first step after a gap.
        numbered = [f for f in bob_ws.frames if "n" in f]
        assert [f["n"] for f in numbered] == list(range(numbered[0]["n"],
                                                        numbered[0]["n"] + len(numbered)))
        steps = [(i, f["seq"]) for i, f in enumerate(numbered)
                 if f["type"] == "watch" and f["seq"] > 2]
        seen = {seq for _, seq in steps}
        missing = set(range(3, 9)) - seen
        assert missing <= {3, 4, 5, 6}  # only steps made while Redis was away
        if missing:
            after_gap = next(i for i, seq in steps if seq > min(missing))
            resyncs = [i for i, f in enumerate(numbered) if f["type"] == "resync"]
            assert resyncs and resyncs[0] < after_gap, (missing, numbered)
        async with httpx.AsyncClient(timeout=5) as http:
            ready = await http.get(f"{one.http}/readyz")
            assert ready.json()["status"] == "ok"
    finally:
        await ann_ws.close()
        await bob_ws.close()
