"""Failover through the balancer (issue 23, target 3): how long a player whose worker is
SIGKILLed waits before playing again.

    python -m bench.failover                      # 2 workers, 20 duels, 6 kills
    python -m bench.failover --duels 10 --rounds 3

Runs `spider cluster`'s own machinery (``app.ops.cluster.LocalCluster``: workers behind
HAProxy with deploy/haproxy.cfg) on a fresh PostgreSQL database and a Redis database of
its own (``--redis-db``, flushed first). Each round: every player connects through the
balancer (leastconn spreads them over the workers), opens their game and plays a few
actions; then one worker is SIGKILLed (the one holding the most sockets). For each
player whose socket dropped it measures, from the kill:

- **reconnected**: a new WebSocket through the balancer, resuming its event stream, has
  its ``welcome`` (first tried within 100 ms, at random, as the web client does, then
  every 50 ms on 502/503 and refused connections);
- **playing again**: the ack of the next action sent on it (the action is one the player
  would play; a refusal that brings a fresh view is followed by another try);
- **the survivors' CPU** (user + system, from /proc) from the kill until every dropped
  player plays again, per dropped player: what a failover costs the workers left, a
  figure less at the mercy of a shared machine than the times above.

The killed worker is started again (as ``spider cluster`` does) and is back in the
balancer before the next round. Prints a table and writes ``bench/results/failover.json``.
A player's clock runs on through the failover (docs/operations.md): what the player
loses is the "playing again" time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis

from app.ops.cluster import LocalCluster
from bench.bot import choose
from bench.client import DuelClient, Player, seat_pair, signup
from bench.database import create_pg_database, drop_pg_database, pg_url, upgrade
from bench.server import free_port
from bench.stats import summary_ms, table

RESULTS = Path(__file__).resolve().parent / "results" / "failover.json"
RETRY_EVERY_S = 0.05
FIRST_TRY_SPREAD_S = 0.1  # the web client's first try after a drop: within 100 ms
GIVE_UP_S = 20.0
ACTIONS_BEFORE_KILL = 3
BALANCER_RISE_S = 3.0
DROPPED_WITHIN_S = 1.5
"""A socket of the killed worker closes at once (the kernel resets it); one still open
after this long is on a live worker."""


@dataclass
class Seat:
    player: Player
    match_id: int
    client: DuelClient | None = None
    view: dict[str, Any] = field(default_factory=dict)
    seq: int = 0

    async def connect(self, url: str, *, resume: DuelClient | None = None) -> None:
        stream = None if resume is None else resume.welcome["stream"]
        last = None if resume is None else resume.last_event
        self.client = await DuelClient.open(url, self.player, stream=stream, last_event=last,
                                            keep_frames=True)

    async def open(self) -> None:
        assert self.client is not None
        snapshot = await self.client.open_game(self.match_id)
        self.view, self.seq = snapshot["view"], snapshot["seq"]

    async def play_one(self, rng: random.Random) -> None:
        """One action acknowledged (a refusal with a fresh view: try again from it)."""
        assert self.client is not None
        for _ in range(5):
            action = choose(self.view, manual_flip=True, rng=rng) or {"op": "undo"}
            answer, _ = await self.client.act(self.match_id, self.seq + 1, action)
            if answer["type"] == "ack":
                self.view, self.seq = answer["view"], answer["seq"]
                return
            if answer.get("view") is not None:
                self.view, self.seq = answer["view"], answer["next_seq"] - 1
        raise RuntimeError(f"no action acknowledged: {answer}")


def _in_balancer(cluster: LocalCluster) -> None:
    """Every worker ready and back in HAProxy (two checks 1 s apart: ``rise 2``)."""
    cluster.wait_ready()
    time.sleep(BALANCER_RISE_S)


def _free_pair() -> int:
    """A port whose next one is free too (the workers' consecutive ports)."""
    for _ in range(100):
        first = free_port()
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", first + 1))
            except OSError:
                continue
        return first
    raise RuntimeError("no two consecutive free ports")


async def _reconnect(seat: Seat, url: str, killed_at: float, rng: random.Random
                     ) -> tuple[float, float, bool, float] | None:
    """(seconds to the welcome, seconds to the next ack, resumed, seconds to the socket's
    close) after the kill, reconnecting as soon as this player's socket drops; None when
    it stays up (a socket on a live worker)."""
    old = seat.client
    assert old is not None
    try:
        await asyncio.wait_for(old.closed(), DROPPED_WITHIN_S)
    except TimeoutError:
        return None
    dropped = time.perf_counter() - killed_at
    await asyncio.sleep(rng.uniform(0, FIRST_TRY_SPREAD_S))  # as web/js/socket.js waits
    while True:
        try:
            await seat.connect(url, resume=old)
            break
        except Exception:  # 502/503 from the balancer, refused, reset: retry, as a browser
            if time.perf_counter() - killed_at > GIVE_UP_S:
                raise
            await asyncio.sleep(RETRY_EVERY_S)
    reconnected = time.perf_counter() - killed_at
    assert seat.client is not None
    resumed = bool(seat.client.welcome.get("resumed"))
    await seat.play_one(rng)
    return reconnected, time.perf_counter() - killed_at, resumed, dropped


async def _round(cluster: LocalCluster, seats: list[Seat], url: str, victim: int,
                 rng: random.Random) -> dict[str, Any]:
    await asyncio.gather(*(seat.connect(url) for seat in seats))
    await asyncio.gather(*(seat.open() for seat in seats))
    for _ in range(ACTIONS_BEFORE_KILL):
        await asyncio.gather(*(seat.play_one(rng) for seat in seats))
    process = cluster.worker_process(victim)
    survivors = [cluster.worker_process(n).pid for n in range(cluster.workers) if n != victim]
    cpu_before = sum(_cpu_seconds(pid) for pid in survivors)
    killed_at = time.perf_counter()
    os.kill(process.pid, signal.SIGKILL)
    answers = await asyncio.gather(*(_reconnect(seat, url, killed_at, rng) for seat in seats))
    survivor_cpu = sum(_cpu_seconds(pid) for pid in survivors) - cpu_before
    timings = [timing for timing in answers if timing is not None]
    for seat in seats:
        if seat.client is not None:
            await seat.client.close()
    await asyncio.to_thread(cluster.restart_dead)
    await asyncio.to_thread(_in_balancer, cluster)
    return {"victim": victim, "dropped": len(timings),
            "dropped_s": [t[3] for t in timings], "reconnected_s": [t[0] for t in timings],
            "playing_s": [t[1] for t in timings],
            "resumed": sum(1 for t in timings if t[2]),
            "survivor_cpu_s": survivor_cpu}


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _bench(cluster: LocalCluster, url_http: str, duels: int, rounds: int,
                 seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    url_ws = url_http.replace("http://", "ws://")
    seats: list[Seat] = []
    async with httpx.AsyncClient(base_url=url_http, timeout=30) as http:
        for n in range(duels):
            owner = await signup(http, f"fo{n}a")
            guest = await signup(http, f"fo{n}b")
            match_id = await seat_pair(http, owner, guest, time_limit_seconds=3600)
            seats += [Seat(owner, match_id), Seat(guest, match_id)]
    results = []
    for number in range(rounds):
        outcome = await _round(cluster, seats, url_ws, number % cluster.workers, rng)
        print(f"round {number + 1}: killed worker {outcome['victim'] + 1}, "
              f"{outcome['dropped']} players dropped, {outcome['resumed']} resumed", flush=True)
        results.append(outcome)
    return results


def _figures(samples_s: list[float]) -> dict[str, float]:
    return {**summary_ms(samples_s), "max_ms": round(max(samples_s, default=0.0) * 1e3, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--duels", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--redis-db", type=int, default=13)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()

    redis_url = f"redis://127.0.0.1:6379/{args.redis_db}"
    redis.Redis.from_url(redis_url).flushdb()
    database = create_pg_database()
    url = pg_url(database)
    upgrade(url)
    workdir = Path(tempfile.mkdtemp(prefix="bench-failover-"))
    env = {**os.environ, "SPIDER_DATABASE_URL": url, "SPIDER_REDIS_URL": redis_url,
           "SPIDER_SECRET_KEY": "bench-failover-secret", "SPIDER_LOG_LEVEL": "WARNING",
           "SPIDER_PLAYER_CREATE_BURST": "100000", "SPIDER_PLAYER_CREATE_PER_MINUTE": "100000",
           # The solo pool kept in the database is filled once, on a fresh database (16
           # four-suit solves: minutes of CPU); a production restart finds it full. Off
           # here, or each round's survivor would be measured while it solves.
           "SPIDER_SOLO_POOL_SIZE": "0", "SPIDER_SOLO_POOL_FOUR_SUITS_SIZE": "0"}
    port = free_port()
    cluster = LocalCluster(args.workers, port, _free_pair(), workdir, env=env)
    try:
        cluster.start()
        _in_balancer(cluster)
        rounds = asyncio.run(_bench(cluster, f"http://127.0.0.1:{port}", args.duels,
                                    args.rounds, args.seed))
    finally:
        cluster.stop()
        drop_pg_database(database)
    reconnected = [s for r in rounds for s in r["reconnected_s"]]
    playing = [s for r in rounds for s in r["playing_s"]]
    summary = {"socket_closed": _figures([s for r in rounds for s in r["dropped_s"]]),
               "reconnected": _figures(reconnected), "playing_again": _figures(playing)}
    rows = [("from the kill to", "players", "p50 ms", "p95 ms", "max ms")]
    for name, figures in summary.items():
        rows.append((name.replace("_", " "), str(figures["count"]), f"{figures['p50_ms']:.0f}",
                     f"{figures['p95_ms']:.0f}", f"{figures['max_ms']:.0f}"))
    print(table(rows))
    resumed = sum(r["resumed"] for r in rounds)
    print(f"{len(rounds)} kills, {len(playing)} players dropped, {resumed} resumed their stream")
    cpu_ms = 1e3 * sum(r["survivor_cpu_s"] for r in rounds) / max(1, len(playing))
    summary["survivor_cpu_ms_per_player"] = round(cpu_ms, 2)  # type: ignore[assignment]
    print(f"survivors' CPU from the kill to the last player playing again: "
          f"{cpu_ms:.1f} ms per dropped player")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "host": platform.node(),
        "load_average": os.getloadavg(), "workers": args.workers, "duels": args.duels,
        "summary": summary, "resumed": resumed, "rounds": rounds}, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
