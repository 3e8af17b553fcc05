"""The frame leak check over many random duels: bots play real deals to the end, one of
each pair watches the other once done, and every frame anyone received is checked."""

from __future__ import annotations

import asyncio
import random

import httpx

from bench.client import DuelClient, seat_pair, signup
from tests.support.cluster import Cluster
from tests.support.duelists import Duelist, check_no_leak, true_positions

DUELS = 12
SUITS = (1, 2, 4)


async def duel(cluster: Cluster, index: int) -> int:
    server = cluster.servers[0]
    rng = random.Random(1000 + index)
    # A 4-suit match's deal is searched when the new server's pool is not filled yet,
    # four at once on two solver processes: past 30 s once on a loaded machine.
    async with httpx.AsyncClient(base_url=server.http, timeout=120) as http:
        ann, bob = await signup(http, f"Ann{index}"), await signup(http, f"Bob{index}")
        match_id = await seat_pair(http, ann, bob, suits=SUITS[index % 3])
    first = Duelist(ann, match_id, await DuelClient.open(server.ws, ann), rng)
    second = Duelist(bob, match_id, await DuelClient.open(server.ws, bob), rng)
    await first.open()
    await second.open()
    for _ in range(rng.randrange(10, 40)):
        await second.step()
    assert (await second.finish())["type"] == "ack"
    watched, _ = await second.client.request({"type": "spectate", "match_id": match_id})
    assert watched["type"] == "snapshot" and watched["role"] == "spectator"
    for _ in range(rng.randrange(10, 60)):
        await first.step()
    assert (await first.finish())["type"] == "ack"
    await asyncio.sleep(0.3)  # the last watch and result frames arrive
    states = await true_positions(first.client, match_id, [ann.id, bob.id])
    checked = check_no_leak([first, second], states)
    await first.client.close()
    await second.client.close()
    return checked


async def test_no_frame_of_many_random_duels_leaks_a_hidden_card(
    sqlite_server: Cluster,
) -> None:
    checked = await asyncio.gather(*(duel(sqlite_server, i) for i in range(DUELS)))
    assert all(count >= 20 for count in checked), checked
    assert sum(checked) >= DUELS * 40
