"""SIGKILL in the middle of duels: every acknowledged action survives, clocks run on."""

from __future__ import annotations

import asyncio
import random
import signal
import time

import httpx

from bench.client import DuelClient, seat_pair, signup
from tests.support.cluster import Cluster
from tests.support.duelists import Duelist, check_no_leak, true_positions

DUELS = 4
TIME_LIMIT_S = 600


async def test_sigkill_mid_duel_loses_no_acknowledged_action(pg_cluster: Cluster) -> None:
    server = pg_cluster.servers[0]
    duelists: list[Duelist] = []
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        for index in range(DUELS):
            ann, bob = await signup(http, f"Ann{index}"), await signup(http, f"Bob{index}")
            match_id = await seat_pair(http, ann, bob, time_limit_seconds=TIME_LIMIT_S)
            for player in (ann, bob):
                client = await DuelClient.open(server.ws, player)
                duelists.append(Duelist(player, match_id, client, random.Random(index)))
    for duelist in duelists:
        await duelist.open()

    # Everybody plays flat out; the server dies under them after enough acknowledgements.
    async def keep_playing(duelist: Duelist) -> None:
        try:
            while True:
                await duelist.step()
        except (TimeoutError, ConnectionError, OSError):
            return
        except Exception as error:  # the socket died mid-request
            if "close" not in str(error).lower():
                raise

    players = [asyncio.create_task(keep_playing(d)) for d in duelists]
    while min(len(d.acked) for d in duelists) < 25:
        await asyncio.sleep(0.05)
    last_ack_time = {id(d): time.monotonic() for d in duelists}
    server.process.send_signal(signal.SIGKILL)
    await asyncio.gather(*players)
    killed_at = time.monotonic()
    before = {id(d): (d.seq, d.acked[d.seq]) for d in duelists}
    assert sum(len(d.acked) for d in duelists) >= 25 * len(duelists)

    await asyncio.sleep(1.0)  # down for a while: clocks keep running
    server = pg_cluster.restart(0, signal.SIGKILL)
    for duelist in duelists:
        duelist.history.append(duelist.client)
        duelist.client = await DuelClient.open(server.ws, duelist.player)
        assert duelist.client.welcome["resumed"] is False  # a new process: a new stream

    for duelist in duelists:
        seq, ack = before[id(duelist)]
        snapshot = await duelist.open()
        # Every acknowledged action is there; at most the one in flight got in unanswered.
        assert snapshot["seq"] in (seq, seq + 1), (seq, snapshot["seq"])
        if snapshot["seq"] == seq:
            assert snapshot["view"] == ack["view"]
            assert snapshot["score"] == ack["score"]
        # The clock ran on while the server was down, and only that much.
        elapsed_ms = (time.monotonic() - last_ack_time[id(duelist)]) * 1000
        expected = ack["time_left_ms"] - elapsed_ms
        assert abs(snapshot["time_left_ms"] - expected) < 2500, (snapshot, expected)
        assert snapshot["time_left_ms"] < ack["time_left_ms"] - (time.monotonic() - killed_at)

    # Not corrupt: play on, finish, and the records replay to the very positions shown.
    for duelist in duelists:
        for _ in range(5):
            answer = await duelist.step()
            assert answer["type"] in ("ack", "reject"), answer
        done = await duelist.finish()
        assert done["type"] == "ack" and done["status"] == "finished", done
    checked = 0
    for first, second in zip(duelists[::2], duelists[1::2], strict=True):
        ids = [first.player.id, second.player.id]
        states = await true_positions(first.client, first.match_id, ids)
        for duelist in (first, second):
            assert states[duelist.player.id][-1].actions == duelist.view["actions"]
        checked += check_no_leak([first, second], states)
    assert checked > 25 * len(duelists)
    for duelist in duelists:
        await duelist.client.close()
