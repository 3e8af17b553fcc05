"""What the stack's primitives cost a worker's CPU, one at a time at human pace: the floor
under the server CPU per ack.

    python -m bench.floor            # PostgreSQL and Redis on 127.0.0.1

At human pace nothing can be batched: each action is a frame read, one commit, one Redis
script call, and what other processes receive of it, each its own wake-up of the event
loop. This times, in this process, each primitive alone paced at ``--rate`` per second
(460: one of 2 workers' share of 1,000 players at human pace), ``--count`` times:

- ``wake``: a paced no-op (the loop's timer and wake-up: the pacing's own cost, taken off
  the figures below);
- ``commit``: the action log's shape, one prepared INSERT in its own transaction
  (asyncpg, as ``app/db/log_writer.py``), on a table of its own;
- ``redis PING``: one round trip that does nothing (Redis's cost of a lone request: its
  wake-up, a read and a write);
- ``redis call``: one batch-script call of the server's client (``BatchScript`` with the
  publish op, the connection class and options of ``app/messaging``), published to nobody;
- ``publish + delivery``: the same call to a channel this process reads with redis-py's
  pub/sub reader, awaited until the message is read (as a worker receives an opponent's
  progress); ``delivery`` is its cost beyond the call.

Redis's own CPU per operation comes from ``INFO cpu`` (the Redis may be shared: an upper
bound). Prints a table and writes bench/results/floor.json. The transport's share (a
WebSocket frame in and one out) is ``bench.load``'s echo phase (server CPU per answer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import redis.asyncio as redis
import uvloop

from app.messaging.redis_healing import healing_options
from app.messaging.redis_scripts import PUBLISH, BatchScript, OpCall
from bench.redis_streams import FRAME, redis_cpu_s
from bench.stats import table

RESULTS = Path(__file__).resolve().parent / "results"
Operation = Callable[[int], Awaitable[None]]


async def paced(operation: Operation, rate: float, count: int) -> float:
    """This process's CPU per operation, in µs, each started on a fixed timetable."""
    gap, due = 1 / rate, time.perf_counter()
    started = time.process_time()
    for index in range(count):
        await operation(index)
        due += gap
        if (wait := due - time.perf_counter()) > 0:
            await asyncio.sleep(wait)
    return (time.process_time() - started) / count * 1e6


async def measured(name: str, operation: Operation, args: argparse.Namespace,
                   client: redis.Redis) -> dict[str, Any]:
    before = await redis_cpu_s(client)
    cpu_us = await paced(operation, args.rate, args.count)
    redis_us = (await redis_cpu_s(client) - before) / args.count * 1e6
    return {"name": name, "cpu_us": round(cpu_us, 1), "redis_cpu_us": round(redis_us, 1)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    client = redis.Redis.from_url(args.redis, **healing_options())
    subscriber = redis.Redis.from_url(args.redis, **healing_options())
    database = await asyncpg.connect(args.postgres)
    table_name = f"floor_{uuid.uuid4().hex[:8]}"
    channel = f"floor{uuid.uuid4().hex[:8]}"
    pubsub = subscriber.pubsub()
    try:
        await database.execute(f"CREATE TABLE {table_name} (id bigserial PRIMARY KEY, "
                               "game_id bigint, seq int, action text, score int, at double "
                               "precision)")
        insert = await database.prepare(
            f"INSERT INTO {table_name} (game_id, seq, action, score, at) "
            "VALUES ($1, $2, $3, $4, $5)")
        script = BatchScript(client, [PUBLISH])
        await pubsub.subscribe(channel)
        await pubsub.get_message(timeout=1)  # the subscription's confirmation

        async def wake(_: int) -> None:
            return None

        async def commit(index: int) -> None:
            await insert.fetch(1, index, '{"t":"move","from":1,"to":2,"n":1}', 500, time.time())

        async def ping(_: int) -> None:
            await client.execute_command("PING")

        async def call(_: int) -> None:
            await script.run([OpCall(PUBLISH, [], [f"{channel}-nobody", FRAME])])

        async def publish_and_read(_: int) -> None:
            await script.run([OpCall(PUBLISH, [], [channel, FRAME])])
            while await pubsub.get_message(ignore_subscribe_messages=True, timeout=1) is None:
                pass

        rows = [await measured(name, operation, args, client) for name, operation in (
            ("wake", wake), ("commit", commit), ("redis PING", ping), ("redis call", call),
            ("publish + delivery", publish_and_read))]
    finally:
        await database.execute(f"DROP TABLE IF EXISTS {table_name}")
        await database.close()
        await pubsub.aclose()
        await subscriber.aclose()
        await client.aclose()
    by_name = {row["name"]: row for row in rows}
    base = by_name["wake"]["cpu_us"]
    for row in rows:
        row["net_cpu_us"] = round(row["cpu_us"] - (0 if row["name"] == "wake" else base), 1)
    delivery = round(by_name["publish + delivery"]["cpu_us"] - by_name["redis call"]["cpu_us"], 1)
    return {"rate": args.rate, "count": args.count, "operations": rows,
            "delivery_net_cpu_us": delivery,
            "commit_call_delivery_cpu_us": round(by_name["commit"]["net_cpu_us"]
                                                 + by_name["redis call"]["net_cpu_us"]
                                                 + delivery, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1/test")
    parser.add_argument("--rate", type=float, default=460.0)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--output", type=Path, default=RESULTS / "floor.json")
    args = parser.parse_args()
    results = uvloop.run(run(args))
    rows: list[tuple[str, ...]] = [("operation", "cpu µs/op", "net of wake", "Redis cpu µs/op")]
    rows += [(row["name"], str(row["cpu_us"]), str(row["net_cpu_us"]), str(row["redis_cpu_us"]))
             for row in results["operations"]]
    print(table(rows))
    print(f"delivery beyond the call: {results['delivery_net_cpu_us']} µs; one commit + one "
          f"call + one delivery, net of wake-ups: {results['commit_call_delivery_cpu_us']} µs")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
