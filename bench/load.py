"""Load harness: concurrent duels against one server process, with a bare echo baseline.

    python -m bench.load                      # 500 players, 20 s per phase, 10,000 idle
    python -m bench.load --players 40 --duration 3 --idle 500     # a quick look
    python -m bench.load --cluster 2 --players 1000 --idle 0      # through the balancer

One server process (`spider serve`, the production settings) on a loopback port, on a
fresh database (SQLite by default, `--postgres` for a fresh PostgreSQL database that is
dropped afterwards). Phases, for each pace (human: one action every 0.5-1.5 s per
player; flat: the next action as soon as the previous is answered):

- echo: the same number of WebSockets to `/bench/echo` sending action-sized frames at
  the same pace: the transport's own round trip, the baseline (timed once every socket
  is open, as the duels are once every game is open);
- duels: the players, seated in pairs, each on their own socket, playing bot actions
  (validated, scored and written to the action log before the ack): round trip p50 /
  p95 / p99, acknowledged (persisted) actions per second, rejects, errors;

With ``--postgres``, first the durable floor: a lone INSERT (its own commit, the server's
statement for one row into a table of the log's shape) timed one after another on the
same database with nothing else running; each pace's duels are then compared with echo
+ commit (p50 and p99, targets 1.25x and 1.5x). Then the same INSERT paced at the rate
one writer gets at human pace, its backend idle in between (a diagnostic, printed
beside the targets' ratios: the tight loop keeps its backend hot, the server's cannot).

Then 10,000 idle authenticated connections (hello answered) held open: server memory per
connection. Server memory (RSS) is sampled throughout, and the server's CPU time per
answer in each phase (a figure the client, on the same cores, disturbs far less than
throughput). Prints a table and writes
bench/results/load.json. The client runs on the same 2 cores as the server, so flat-out
figures are a floor for the server, not a ceiling.

With ``--cluster N`` (implies ``--postgres``) the target is N workers behind HAProxy
(``bench/cluster_target.py``: `spider cluster`'s machinery, Redis database
``--redis-db`` of its own, flushed first): the players connect through the balancer, the
server figures are the workers' summed, and each duel phase also reads what Redis spent
(``INFO commandstats`` and ``INFO cpu``, before and after) per acknowledged action.
Redis's accounts are server-wide: nothing else may use that Redis meanwhile.

The client must not make the tail it measures. During a measured phase its garbage
collector is off, with what existed before the phase frozen (`measuring`): one client
process drives every socket, so each of its collections (tens of ms once it holds a few
hundred thousand objects) delayed every answer in flight at that moment: at 1,000
players, human pace, it made the duels' p99 130-280 ms where the server gave 80-100,
and flat out it cost a third of the throughput. What the phase leaves is collected once
it is over. The client runs on uvloop when it is installed (it comes
with `uvicorn[standard]`). Next to the server's CPU per answer the table gives the
client's own (`client cpu`: its process time over the phase per answer): the two share
2 cores with PostgreSQL, so when their sum times answers per second nears 2 s per
second, round trips measure queueing for a core, not the server.
For the duels it also prints the share of actions the server itself took over 2.5 / 5 /
10 ms to answer (its `spider_action_latency_seconds` histogram over the phase: frame
in, answer out, the commit wait included): a round-trip tail beyond that share is the
transport, the client or waiting for a core.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from bench.bot import choose
from bench.client import DuelClient, Player, seat_pair, signup
from bench.cluster_target import ClusterTarget, RedisAccount
from bench.database import create_pg_database, drop_pg_database, pg_url, sqlite_url, upgrade
from bench.server import Server, raise_nofile, start_server
from bench.stats import mib, summary_ms, table

RESULTS = Path(__file__).resolve().parent / "results"
SLOW_S = 0.3
"""An answer slower than this is counted by when it was sent (``Phase.slow_by_second``)."""
ACTION_FRAME = json.dumps({"type": "action", "match_id": 1, "seq": 12,
                           "action": {"op": "move", "from": 3, "to": 7, "count": 2}})


@dataclass
class Phase:
    name: str
    rtts: list[float] = field(default_factory=list)
    acks: int = 0
    rejects: int = 0
    errors: int = 0
    seconds: float = 0.0
    server_cpu_s: float = 0.0
    client_cpu_s: float = 0.0
    server_latency: dict[str, float] = field(default_factory=dict)  # bucket -> answers
    reasons: Counter[str] = field(default_factory=Counter)
    redis: RedisAccount | None = None  # what Redis spent during the phase (a cluster)
    # When each answered action was sent, in seconds since the phase's start (the duel
    # phases): where in the phase its slow answers fall.
    sent: list[float] = field(default_factory=list)
    started: float = 0.0

    def answered(self, rtt: float) -> None:
        """An answer's round trip, and when its action left (now less the trip)."""
        self.rtts.append(rtt)
        self.sent.append(time.monotonic() - rtt - self.started)

    def slow_by_second(self, over_s: float = SLOW_S) -> dict[int, int]:
        """How many answers took longer than ``over_s``, by the second of the phase their
        action was sent in: a tail spread over the phase is queueing, one in a few seconds
        is a stall. Empty for the phases that do not say when they sent (echo, commit)."""
        if not self.sent:
            return {}
        return dict(sorted(Counter(int(at) for at, rtt in zip(self.sent, self.rtts,
                                                              strict=True)
                                   if rtt > over_s).items()))

    def failed(self, why: str) -> None:
        self.errors += 1
        self.reasons[why[:80]] += 1

    def report(self) -> dict[str, Any]:
        return {"phase": self.name, **summary_ms(self.rtts), "acks": self.acks,
                "rejects": self.rejects, "errors": self.errors,
                "seconds": round(self.seconds, 2),
                "answers_per_s": round(len(self.rtts) / self.seconds, 1) if self.seconds else 0,
                "acks_per_s": round(self.acks / self.seconds, 1) if self.seconds else 0,
                "server_cpu_s": round(self.server_cpu_s, 2),
                # Server CPU per answer: what one core could serve if the load client did
                # not share the machine (it runs on the same 2 cores).
                "server_cpu_ms_per_answer": (
                    round(self.server_cpu_s * 1e3 / len(self.rtts), 3) if self.rtts else 0),
                "client_cpu_s": round(self.client_cpu_s, 2),
                "client_cpu_ms_per_answer": (
                    round(self.client_cpu_s * 1e3 / len(self.rtts), 3) if self.rtts else 0),
                "server_over_ms": self.server_over_ms(),
                "slow_by_second": self.slow_by_second(),
                **self.redis_per_ack(),
                "why": dict(self.reasons.most_common(5))}

    def redis_per_ack(self) -> dict[str, float]:
        """Redis's CPU (its process), command time and calls per acknowledged action."""
        if self.redis is None or not self.acks:
            return {}
        by_command = sorted(self.redis.calls_by_command.items(), key=lambda kv: -kv[1])
        return {"redis_cpu_us_per_ack": round(self.redis.cpu_s * 1e6 / self.acks, 1),
                "redis_command_us_per_ack": round(self.redis.command_us / self.acks, 1),
                "redis_calls_per_ack": round(self.redis.calls / self.acks, 2),
                "redis_calls_per_ack_by_command": {
                    name: round(calls / self.acks, 2) for name, calls in by_command}}

    def server_over_ms(self) -> dict[str, float]:
        """Per cent of the phase's actions the server itself took longer than 2.5, 5, 10 ms
        to answer (frame in, answer out: the commit wait included; not the transport)."""
        total = self.server_latency.get("+Inf", 0.0)
        if not total:
            return {}
        return {str(float(le) * 1e3): round(100 * (total - self.server_latency[le]) / total, 2)
                for le in ("0.0025", "0.005", "0.01") if le in self.server_latency}


@contextlib.contextmanager
def measuring(phase: Phase, server: Server) -> Iterator[None]:
    """The phase's server and client CPU, with the client's collector out of the way."""
    gc.collect()
    gc.freeze()  # what the phase finds is not walked again by anything during it
    gc.disable()
    server_cpu, client_cpu, started = server.cpu_s, time.process_time(), time.monotonic()
    try:
        yield
    finally:
        phase.seconds = time.monotonic() - started
        phase.server_cpu_s = server.cpu_s - server_cpu
        phase.client_cpu_s = time.process_time() - client_cpu
        gc.unfreeze()
        gc.enable()
        gc.collect()


class RssSampler:
    def __init__(self, server: Server) -> None:
        self.server, self.peak, self._task = server, 0, None  # type: ignore[var-annotated]

    async def __aenter__(self) -> RssSampler:
        self._task = asyncio.create_task(self._sample())  # type: ignore[assignment]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._task.cancel()  # type: ignore[attr-defined]

    async def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, self.server.rss)
            await asyncio.sleep(0.25)


def pause(pace: str, rng: random.Random) -> float:
    return rng.uniform(0.5, 1.5) if pace == "human" else 0.0


async def echo_phase(server: Server, connections: int, pace: str, seconds: float) -> Phase:
    phase = Phase(f"echo {pace}")
    ready = asyncio.Event()
    waiting = [connections]

    def connected() -> None:
        waiting[0] -= 1
        if waiting[0] == 0:
            ready.set()

    async def one(index: int) -> None:
        rng = random.Random(index)
        counted = False
        try:
            async with connect(f"{server.ws}/bench/echo", ping_interval=None,
                               open_timeout=60) as ws:
                counted = True
                connected()
                await ready.wait()  # as in the duels: every socket open before timing starts
                await asyncio.sleep(rng.uniform(0, 1.0) if pace == "human" else 0)
                stop = time.monotonic() + seconds
                while time.monotonic() < stop:
                    started = time.perf_counter()
                    await ws.send(ACTION_FRAME)
                    await ws.recv()
                    phase.rtts.append(time.perf_counter() - started)
                    await asyncio.sleep(pause(pace, rng))
        except Exception as error:
            if not counted:
                connected()
            phase.failed(f"{type(error).__name__}: {error}")

    tasks = [asyncio.create_task(one(i)) for i in range(connections)]
    await ready.wait()
    with measuring(phase, server):
        await asyncio.gather(*tasks)
    return phase


async def duel_phase(server: Server, pairs: list[tuple[Player, Player, int]], pace: str,
                     seconds: float) -> Phase:
    phase = Phase(f"duels {pace}")
    ready = asyncio.Event()
    waiting = [0]

    async def one(player: Player, match_id: int, index: int) -> None:
        rng = random.Random(index)
        try:
            client = await DuelClient.open(server.ws, player, keep_frames=False)
        except Exception as error:
            phase.failed(f"connect {type(error).__name__}: {error}")
            waiting[0] -= 1
            if waiting[0] == 0:
                ready.set()
            return
        counted = False
        try:
            snapshot = await client.open_game(match_id)
            view, seq = snapshot["view"], snapshot["seq"]
            counted = True
            waiting[0] -= 1
            if waiting[0] == 0:
                ready.set()
            await ready.wait()  # everybody connected: the measurement starts together
            await asyncio.sleep(rng.uniform(0, 1.0) if pace == "human" else 0)
            stop = time.monotonic() + seconds
            while time.monotonic() < stop and view["status"] == "playing":
                action = choose(view, manual_flip=True, rng=rng) or {"op": "undo"}
                answer, rtt = await client.act(match_id, seq + 1, action)
                phase.answered(rtt)
                if answer["type"] == "ack":
                    phase.acks += 1
                    view, seq = answer["view"], answer["seq"]
                elif answer["type"] == "reject":
                    phase.rejects += 1
                    phase.reasons[f"reject {answer['code']}"] += 1
                    if answer.get("view") is not None:
                        view, seq = answer["view"], answer["next_seq"] - 1
                else:
                    phase.failed(f"answer {answer.get('code', answer['type'])}")
                await asyncio.sleep(pause(pace, rng))
        except Exception as error:
            phase.failed(f"{type(error).__name__}: {error}")
            if not counted:  # a game that could not be opened must not hold the start
                waiting[0] -= 1
                if waiting[0] == 0:
                    ready.set()
        finally:
            with contextlib.suppress(Exception):
                await client.close()

    players = [(p, m) for a, b, m in pairs for p in (a, b)]
    waiting[0] = len(players)
    tasks = [asyncio.create_task(one(p, m, i)) for i, (p, m) in enumerate(players)]
    await ready.wait()
    phase.started = time.monotonic()
    before = server_latency(server)
    account = getattr(server, "redis_account", None)
    redis_before = account() if account else None
    with measuring(phase, server):
        await asyncio.gather(*tasks)
    if account and redis_before:
        phase.redis = account().since(redis_before)
    after = server_latency(server)
    phase.server_latency = {le: after[le] - before.get(le, 0.0) for le in after}
    return phase


async def idle_phase(server: Server, players: list[Player]) -> dict[str, Any]:
    gate = asyncio.Semaphore(200)
    await asyncio.sleep(1.0)
    before = server.rss
    sockets: list[Any] = []
    errors = 0

    async def one(player: Player) -> None:
        nonlocal errors
        async with gate:
            try:
                ws = await connect(f"{server.ws}/ws", ping_interval=None, open_timeout=120,
                                   max_queue=4)
                await ws.send(json.dumps({"type": "hello", "v": 1, "token": player.token}))
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if welcome.get("type") != "welcome":
                    raise RuntimeError(welcome)
                sockets.append(ws)
            except Exception:
                errors += 1

    started = time.monotonic()
    await asyncio.gather(*(one(p) for p in players))
    connect_s = time.monotonic() - started
    await asyncio.sleep(3.0)
    after = server.rss
    metrics = httpx.get(f"{server.http}/metrics", timeout=30).text
    gauge = re.search(r"^spider_ws_connections (\S+)$", metrics, re.MULTILINE)
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    held = len(sockets)
    return {
        "connections": held, "errors": errors, "connect_s": round(connect_s, 1),
        "server_gauge": float(gauge.group(1)) if gauge else None,
        "rss_before_mib": mib(before), "rss_after_mib": mib(after),
        "kib_per_connection": round((after - before) / max(1, held) / 1024, 1),
        "projected_10k_mib": mib(before + (after - before) / max(1, held) * 10_000),
    }


FLOOR_TABLE = "bench_commit_floor"
FLOOR_PARENT = "bench_commit_floor_games"
# The log's table (game_actions, app/db/models.py) and the server's statement for one row
# (POSTGRES_ONE, app/db/log_writer.py), spelt out here so that a run of older server code
# with this harness measures the very same floor (tests/bench/test_load.py holds them to
# the server's).
FLOOR_DDL = (
    f"CREATE TABLE {FLOOR_PARENT} (id integer PRIMARY KEY)",
    f"INSERT INTO {FLOOR_PARENT} VALUES (1)",
    f"CREATE TABLE {FLOOR_TABLE} (id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
    f"game_id integer NOT NULL REFERENCES {FLOOR_PARENT} (id) ON DELETE CASCADE, "
    "seq integer NOT NULL CHECK (seq >= 1), action json NOT NULL, "
    "at timestamp with time zone NOT NULL, score integer, actions_count integer, "
    "time_used_ms integer, UNIQUE (game_id, seq))",
)
FLOOR_INSERT = f"""
INSERT INTO {FLOOR_TABLE} (game_id, seq, action, at, score, actions_count, time_used_ms)
VALUES ($1, $2, $3::json, $4, $5, $6, $7)
"""


async def commit_phase(database_url: str, seconds: float, samples: int = 3000, *,
                       pause_s: float = 0.0) -> Phase:
    """The durable floor: one connection, one row per INSERT (its own transaction, as the
    action-log writer's statement is), timed one after the other with nothing else
    running. On PostgreSQL only.

    The row and its statement are the server's (``FLOOR_DDL``, ``FLOOR_INSERT``): the
    log's columns, checks, primary key, unique ``(game_id, seq)`` and foreign key to a
    parent row, bound the way the writer binds them. ``pause_s``: a pause between
    statements (the "paced" floor, a diagnostic: its connection idles between rows as
    the writer's does at human pace, where the tight loop keeps its backend hot)."""
    import asyncpg  # type: ignore[import-untyped]
    from pydantic_core import to_json

    phase = Phase("commit floor" + (" paced" if pause_s else ""))
    dsn = database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(dsn)
    try:
        for ddl in FLOOR_DDL:
            await connection.execute(ddl)
        insert = await connection.prepare(FLOOR_INSERT)
        action = {"op": "move", "from": 3, "to": 7, "count": 2}
        gc.collect()
        started = time.monotonic()
        for seq in range(1, samples + 1):
            if time.monotonic() - started > seconds:
                break
            at = datetime.fromtimestamp(time.time(), UTC)  # as utc_from_seconds makes it
            began = time.perf_counter()
            await insert.fetch(1, seq, to_json(action).decode(), at, -seq, seq, seq * 10)
            phase.rtts.append(time.perf_counter() - began)
            if pause_s:
                await asyncio.sleep(pause_s)
        phase.seconds = time.monotonic() - started
        phase.acks = len(phase.rtts)
        await connection.execute(f"DROP TABLE {FLOOR_TABLE}, {FLOOR_PARENT}")
    finally:
        await connection.close()
    return phase


def floor_ratios(by_name: dict[str, dict[str, Any]], pace: str, floor_phase: str = "commit floor"
                 ) -> dict[str, float] | None:
    """The duels' ack against the durable floor (echo + lone commit), same run: the
    targets are p50 <= 1.25x and p99 <= 1.5x (against the tight loop's lone commit;
    ``floor_phase`` "commit floor paced" gives the diagnostic against the paced one)."""
    floor, echo = by_name.get(floor_phase), by_name.get(f"echo {pace}")
    duels = by_name.get(f"duels {pace}")
    if floor is None or echo is None or duels is None or not floor["count"]:
        return None
    return {
        "floor_p50_ms": round(echo["p50_ms"] + floor["p50_ms"], 3),
        "floor_p99_ms": round(echo["p99_ms"] + floor["p99_ms"], 3),
        "p50": round(duels["p50_ms"] / (echo["p50_ms"] + floor["p50_ms"]), 2),
        "p99": round(duels["p99_ms"] / (echo["p99_ms"] + floor["p99_ms"]), 2),
    }


async def signups(server: Server, count: int, prefix: str) -> list[Player]:
    gate = asyncio.Semaphore(20)
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        async def one(index: int) -> Player:
            async with gate:
                return await signup(http, f"{prefix}{index}")

        return list(await asyncio.gather(*(one(i) for i in range(count))))


async def seat_all(server: Server, players: list[Player], suits: int
                   ) -> list[tuple[Player, Player, int]]:
    gate = asyncio.Semaphore(10)
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        async def one(a: Player, b: Player) -> tuple[Player, Player, int]:
            async with gate:
                # The action path is the same whatever the deal. A 4-suit table gets a
                # rated deal now (the solver searches one per match, seconds each on a
                # loaded machine); a 1-suit one is solved in milliseconds.
                return a, b, await seat_pair(http, a, b, time_limit_seconds=3600,
                                             suits=suits)

        return list(await asyncio.gather(
            *(one(players[i], players[i + 1]) for i in range(0, len(players) - 1, 2))))


async def run(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    results: dict[str, Any] = {"rss_start_mib": mib(server.rss)}
    players = await signups(server, args.players, "load")
    phases: list[Phase] = []
    if args.database_url.startswith("postgresql"):
        phases.append(await commit_phase(args.database_url, min(args.duration, 5.0)))
        # The same, one row per 1/players s: the rate the busier writer gets at human
        # pace (players act once a second on average), its backend idle in between.
        phases.append(await commit_phase(args.database_url, min(args.duration, 5.0),
                                         pause_s=1.0 / max(1, args.players)))
    async with RssSampler(server) as sampler:
        for pace in args.pace:
            phases.append(await echo_phase(server, args.players, pace, args.duration))
            # A fresh set of matches per pace: every game starts from its deal.
            pairs = await seat_all(server, players, args.suits)
            phases.append(await duel_phase(server, pairs, pace, args.duration))
    results["rss_peak_during_duels_mib"] = mib(sampler.peak)
    results["phases"] = [p.report() for p in phases]
    by_name = {p.name: p.report() for p in phases}
    results["ratios"] = {
        pace: {
            "p50": round(by_name[f"duels {pace}"]["p50_ms"] / by_name[f"echo {pace}"]["p50_ms"], 2),
            "p99": round(by_name[f"duels {pace}"]["p99_ms"] / by_name[f"echo {pace}"]["p99_ms"], 2),
        }
        for pace in args.pace
    }
    results["floor_ratios"] = {pace: floor_ratios(by_name, pace) for pace in args.pace}
    results["paced_floor_ratios"] = {
        pace: floor_ratios(by_name, pace, "commit floor paced") for pace in args.pace}
    results["server_errors"] = server_errors(server)
    return results


async def run_idle(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    """On a fresh process: nothing of the duel phases inflates the per-connection figure."""
    idle_players = await signups(server, args.idle, "idle")
    idle = await idle_phase(server, idle_players)
    idle["server_errors"] = server_errors(server)
    return idle


LATENCY_BUCKET = re.compile(
    r'^spider_action_latency_seconds_bucket\{le="([^"]+)"\} (\S+)$', re.MULTILINE)


def _metrics(server: Server | ClusterTarget) -> list[str]:
    """Each server process's /metrics (a cluster's from each worker, not the balancer)."""
    return [httpx.get(f"{url}/metrics", timeout=30).text for url in server.metrics_urls]


def server_latency(server: Server | ClusterTarget) -> dict[str, float]:
    """The servers' action-latency histogram so far: bucket bound -> answers."""
    buckets: dict[str, float] = {}
    for metrics in _metrics(server):
        for le, count in LATENCY_BUCKET.findall(metrics):
            buckets[le] = buckets.get(le, 0.0) + float(count)
    return buckets


def server_errors(server: Server | ClusterTarget) -> float:
    return sum(float(v) for metrics in _metrics(server) for v in re.findall(
        r"^spider_errors_total\{[^}]*\} (\S+)$", metrics, re.M))


def print_table(results: dict[str, Any]) -> None:
    rows = [("phase", "answers", "p50 ms", "p95 ms", "p99 ms", "answers/s", "acks/s",
             "cpu ms/answer", "client cpu", "rejects", "errors")]
    for p in results["phases"]:
        rows.append((p["phase"], str(p["count"]), f"{p['p50_ms']:.2f}", f"{p['p95_ms']:.2f}",
                     f"{p['p99_ms']:.2f}", f"{p['answers_per_s']:.0f}", f"{p['acks_per_s']:.0f}",
                     f"{p['server_cpu_ms_per_answer']:.3f}",
                     f"{p['client_cpu_ms_per_answer']:.3f}", str(p["rejects"]), str(p["errors"])))
    print(table(rows))
    for pace, ratio in results["ratios"].items():
        print(f"{pace}: duel/echo round trip ratio p50 {ratio['p50']}x, p99 {ratio['p99']}x")
    for pace, floor in results.get("floor_ratios", {}).items():
        if floor:
            print(f"{pace}: ack vs the durable floor (echo + lone commit, "
                  f"{floor['floor_p50_ms']} / {floor['floor_p99_ms']} ms): p50 {floor['p50']}x "
                  f"(target <= 1.25), p99 {floor['p99']}x (target <= 1.5)")
    for pace, floor in results.get("paced_floor_ratios", {}).items():
        if floor:
            print(f"{pace}: ack vs echo + the paced lone commit (a diagnostic, not the "
                  f"target: {floor['floor_p50_ms']} / {floor['floor_p99_ms']} ms): "
                  f"p50 {floor['p50']}x, p99 {floor['p99']}x")
    for p in results["phases"]:
        if p.get("slow_by_second"):
            print(f"{p['phase']}: answers over {SLOW_S * 1e3:.0f} ms by the second of the phase "
                  f"they were sent in: {p['slow_by_second']}")
    for p in results["phases"]:
        if p.get("redis_cpu_us_per_ack") is not None:
            print(f"{p['phase']}: Redis per acknowledged action: {p['redis_cpu_us_per_ack']} µs "
                  f"of its CPU (target <= 40), {p['redis_command_us_per_ack']} µs in "
                  f"commands, {p['redis_calls_per_ack']} calls")
            top = list(p.get("redis_calls_per_ack_by_command", {}).items())[:8]
            print(f"{p['phase']}: Redis calls per acknowledged action, by command: "
                  + ", ".join(f"{name} {calls}" for name, calls in top))
    flat = next((p for p in results["phases"] if p["phase"] == "duels flat"), None)
    if flat is not None:
        workers = results.get("config", {}).get("cluster_workers") or 1
        where = "one worker" if workers == 1 else f"{workers} workers behind HAProxy"
        print(f"flat out: {flat['acks_per_s']:.0f} persisted actions/s on {where} "
              f"(target >= 6,000 for one worker)")
    if "rss_start_mib" in results:
        print(f"server RSS: start {results['rss_start_mib']} MiB, "
              f"peak during duels {results['rss_peak_during_duels_mib']} MiB")
        print(f"server errors during duels (spider_errors_total): "
              f"{results['server_errors']:.0f}")
    if "idle" in results:
        idle = results["idle"]
        print(f"idle: {idle['connections']} authenticated connections held "
              f"({idle['errors']} errors, {idle['connect_s']} s to open): "
              f"RSS {idle['rss_before_mib']} -> {idle['rss_after_mib']} MiB, "
              f"{idle['kib_per_connection']} KiB per connection "
              f"(10,000 projected: {idle['projected_10k_mib']} MiB); server errors "
              f"{idle['server_errors']:.0f}")
    for p in results["phases"]:
        if p.get("server_over_ms"):
            over = " / ".join(f"{pct}%" for pct in p["server_over_ms"].values())
            print(f"{p['phase']}: answered by the server in over 2.5 / 5 / 10 ms "
                  f"(frame in, answer out): {over}")
    for p in results["phases"]:
        if p["why"]:
            print(f"{p['phase']}: {p['why']}")


@contextlib.contextmanager
def database(postgres: bool, workdir: Path) -> Any:
    if not postgres:
        url = sqlite_url(workdir / "load.db")
        upgrade(url)
        yield url
        return
    name = create_pg_database()
    try:
        upgrade(pg_url(name))
        yield pg_url(name)
    finally:
        drop_pg_database(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per phase")
    parser.add_argument("--idle", type=int, default=10_000, help="idle connections (0: skip)")
    parser.add_argument("--pace", nargs="*", default=["human", "flat"],
                        choices=["human", "flat"], help="none: only the idle phase")
    parser.add_argument("--ws", default="lean",
                        choices=["lean", "websockets-sansio", "websockets", "wsproto"])
    parser.add_argument("--postgres", action="store_true", help="fresh PostgreSQL database")
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=1,
                        help="the duels' tables (4: a rated deal searched per match)")
    parser.add_argument("--cluster", type=int, default=0, metavar="WORKERS",
                        help="N workers behind HAProxy with Redis (implies --postgres)")
    parser.add_argument("--redis-db", type=int, default=12,
                        help="the cluster's Redis database (flushed first)")
    parser.add_argument("--output", type=Path, default=RESULTS / "load.json")
    args = parser.parse_args()
    if args.cluster:
        args.postgres = True
        if args.idle:
            print("--cluster: the idle phase (memory per connection of one process) is "
                  "skipped; run it without --cluster")
            args.idle = 0
    nofile = raise_nofile(args.idle + args.players * 2 + 2000)
    with tempfile.TemporaryDirectory() as tmp, database(args.postgres, Path(tmp)) as url:
        args.database_url = url
        env = {
            "SPIDER_DATABASE_URL": url,
            "SPIDER_BENCH_ECHO": "true",
            "SPIDER_PLAYER_CREATE_BURST": "1000000",
            "SPIDER_PLAYER_CREATE_PER_MINUTE": "1000000",
            "SPIDER_WS_ACTIONS_PER_SECOND": "100000",
            "SPIDER_WS_ACTION_BURST": "100000",
            "SPIDER_SECRET_KEY": os.urandom(16).hex(),
            "SPIDER_WS_IMPLEMENTATION": args.ws,
            "SPIDER_LOG_LEVEL": "WARNING",
            "SPIDER_DEAL_POOL_SIZE": "0",  # no background solving during the measurement
            "SPIDER_DEAL_POOL_RATED_SIZE": "0",  # (the rated bins too: 4-suit fills take minutes)
            # The solo pool kept in the database fills once on a fresh one (16 four-suit
            # solves, minutes of CPU); a production restart finds it full.
            "SPIDER_SOLO_POOL_SIZE": "0", "SPIDER_SOLO_POOL_FOUR_SUITS_SIZE": "0",
        }
        log_path = args.output.with_suffix(".server.log")
        log_path.unlink(missing_ok=True)
        with contextlib.suppress(ImportError):
            import uvloop

            asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        results: dict[str, Any] = {"phases": [], "ratios": {}}
        if args.pace and args.cluster:
            target = ClusterTarget.start(
                workers=args.cluster, env=env,
                redis_url=f"redis://127.0.0.1:6379/{args.redis_db}")
            try:
                results = asyncio.run(run(args, target))  # type: ignore[arg-type]
            finally:
                target.stop()
        elif args.pace:
            server = start_server(env=env, log_path=log_path, nofile=nofile)
            try:
                results = asyncio.run(run(args, server))
            finally:
                server.stop()
        if args.idle:
            server = start_server(env=env, log_path=log_path.with_suffix(".idle.log"),
                                  nofile=nofile)
            try:
                results["idle"] = asyncio.run(run_idle(args, server))
            finally:
                server.stop()
    results["config"] = {
        "players": args.players, "duration_s": args.duration, "idle": args.idle,
        "suits": args.suits,
        "pace": args.pace, "database": "postgresql" if args.postgres else "sqlite",
        "cluster_workers": args.cluster,
        "ws": f"{args.ws}, per-message-deflate off", "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }
    print_table(results)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.output} (server log: {args.output.with_suffix('.server.log')})")


if __name__ == "__main__":
    main()
