"""Live duel benchmark: action round trips over a real uvicorn server on SQLite.

``python -m bench.live [--duels N] [--actions M]`` starts the server on a temporary,
migrated SQLite file, seats N pairs of players, and has every player send M actions
(a move and its undo, alternately) one at a time, each waiting for its ack. Every ack
means the action was validated, scored and committed to the action log. Prints a table
and writes bench/results/live.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tests.support.database import sqlite_url, upgrade
from tests.support.duel_layouts import near_finished_layout
from tests.support.live import Client, FrameLog, LiveServer, seated_match, signup

RESULTS = Path(__file__).resolve().parent / "results"
STEPS = ({"op": "move", "from": 1, "to": 9, "count": 1}, {"op": "undo"})


async def _player(client: Client, match_id: int, actions: int) -> list[float]:
    await client.connect()
    await client.request({"type": "open_game", "match_id": match_id}, "snapshot")
    latencies = []
    for seq in range(1, actions + 1):
        started = time.perf_counter()
        reply = await client.request({"type": "action", "match_id": match_id, "seq": seq,
                                      "action": STEPS[(seq - 1) % 2]}, ("ack", "reject"))
        latencies.append(time.perf_counter() - started)
        assert reply["type"] == "ack", reply
        client.drop_pending()
    await client.close()
    return latencies


async def run(server: LiveServer, duels: int, actions: int) -> dict[str, Any]:
    log = FrameLog()
    clients = []
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        for index in range(duels):
            ann = await signup(http, f"Ann{duels}x{index}")
            bob = await signup(http, f"Bob{duels}x{index}")
            match_id = await seated_match(http, ann, bob, layout=near_finished_layout())
            clients += [(Client(server, ann, log), match_id), (Client(server, bob, log), match_id)]
    started = time.perf_counter()
    per_player = await asyncio.gather(*(_player(c, m, actions) for c, m in clients))
    wall = time.perf_counter() - started
    latencies = sorted(x for player in per_player for x in player)

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "duels": duels, "players": len(clients), "actions": len(latencies),
        "wall_s": round(wall, 3), "actions_per_s": round(len(latencies) / wall, 1),
        "p50_ms": round(pct(0.50), 2), "p95_ms": round(pct(0.95), 2),
        "p99_ms": round(pct(0.99), 2), "mean_ms": round(statistics.mean(latencies) * 1000, 2),
        "frames_received": len(log.frames),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--actions", type=int, default=100)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.db"
        upgrade(sqlite_url(database))
        server = LiveServer(database, Path(tmp) / "uvicorn.log")
        server.start()
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
