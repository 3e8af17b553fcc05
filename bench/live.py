"""Live duel benchmark: action round trips over a real server process on SQLite.

``python -m bench.live [--duels N] [--actions M]`` starts the server (``spider serve``'s
entry point) on a temporary, migrated SQLite file, seats N pairs of players on 1-suit
tables, and has every player send M actions one at a time, each waiting for its ack: a
move the deal allows and its undo, alternately. Every ack means the action was
validated, scored and committed to the action log. Prints a table and writes
bench/results/live.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

import httpx

from bench.bot import legal_moves
from bench.client import DuelClient, Player, ProtocolFailure, seat_pair, signup
from bench.database import sqlite_url, upgrade
from bench.server import Server, start_server

RESULTS = Path(__file__).resolve().parent / "results"
UNDO = {"op": "undo"}
SERVER_ENV = {
    "SPIDER_SECRET_KEY": "bench-live-secret",
    "SPIDER_PLAYER_CREATE_BURST": "1000",
    "SPIDER_PLAYER_CREATE_PER_MINUTE": "1000",
    # Whole duels are played as fast as the server answers: no frame rate limit.
    "SPIDER_WS_ACTIONS_PER_SECOND": "100000",
    "SPIDER_WS_ACTION_BURST": "100000",
}


async def _player(client: DuelClient, match_id: int, actions: int) -> list[float]:
    snapshot = await client.open_game(match_id)
    moves = legal_moves(snapshot["view"], manual_flip=True)
    if not moves:
        raise ProtocolFailure(f"match {match_id}: the deal allows no move to start with")
    steps, latencies = (moves[0], UNDO), []
    for seq in range(1, actions + 1):
        reply, round_trip = await client.act(match_id, seq, steps[(seq - 1) % 2])
        assert reply["type"] == "ack", reply
        latencies.append(round_trip)
    return latencies


async def run(server: Server, duels: int, actions: int) -> dict[str, Any]:
    seated: list[tuple[Player, int]] = []
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        for index in range(duels):
            ann = await signup(http, f"Ann{duels}x{index}")
            bob = await signup(http, f"Bob{duels}x{index}")
            match_id = await seat_pair(http, ann, bob, time_limit_seconds=3600)
            seated += [(ann, match_id), (bob, match_id)]
    clients = [(await DuelClient.open(server.ws, player), match_id)
               for player, match_id in seated]
    started = asyncio.get_running_loop().time()
    per_player = await asyncio.gather(*(_player(c, m, actions) for c, m in clients))
    wall = asyncio.get_running_loop().time() - started
    frames = sum(len(client.frames) for client, _ in clients)
    for client, _ in clients:
        await client.close()
    latencies = sorted(x for player in per_player for x in player)

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "duels": duels, "players": len(clients), "actions": len(latencies),
        "wall_s": round(wall, 3), "actions_per_s": round(len(latencies) / wall, 1),
        "p50_ms": round(pct(0.50), 2), "p95_ms": round(pct(0.95), 2),
        "p99_ms": round(pct(0.99), 2), "mean_ms": round(statistics.mean(latencies) * 1000, 2),
        "frames_received": frames,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--actions", type=int, default=100)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        url = sqlite_url(Path(tmp) / "bench.db")
        upgrade(url)
        server = start_server(env={"SPIDER_DATABASE_URL": url, **SERVER_ENV},
                              log_path=Path(tmp) / "server.log")
        try:
            for duels in args.duels:
                rows.append(asyncio.run(run(server, duels, args.actions)))
        finally:
            server.stop()
    columns = list(rows[0])
    print(" ".join(f"{c:>15}" for c in columns))
    for row in rows:
        print(" ".join(f"{row[c]!s:>15}" for c in columns))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "live.json").write_text(json.dumps(
        {"bench": "live", "backend": "sqlite", "rows": rows}, indent=2) + "\n")
    print(f"wrote {(RESULTS / 'live.json').relative_to(Path.cwd())}")


if __name__ == "__main__":
    main()
