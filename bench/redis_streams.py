"""What one Redis can take of the event streams: the capacity model's Redis inputs.

    python -m bench.redis_streams            # the real Redis at 127.0.0.1:6379

Measures, on keys of its own (deleted after), for `--seconds` each:

- appends per second: the player-stream write op (`app/messaging/redis_streams.py`), sent
  in batches of `--batch` as the writer does (one script call each), with an ack-sized frame;
- publishes per second: the channel publish op (`app/messaging/redis_publisher.py`: XADD to
  the channel's stream + PUBLISH), batched the same way;
- memory per kept event: `MEMORY USAGE` of a player stream holding `--retention` frames.

A duel action costs about 2 publishes (the watch and progress lines) + 1 plain PUBLISH
(`sync:`) from the acting process and 2 appends (the actor's ack, the opponent's progress
line), one more append per spectator; plus a `PUBSUB NUMSUB` (and, only for a player with
a session on another process, one more publish and append: their other tab). Prints a
table and writes bench/results/redis_streams.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from pathlib import Path
from typing import Any

import redis.asyncio as redis

from app.messaging.redis_publisher import KEPT
from app.messaging.redis_scripts import BatchScript, OpCall
from app.messaging.redis_streams import RedisEventStreams
from bench.stats import table

RESULTS = Path(__file__).resolve().parent / "results"
FRAME = json.dumps({"type": "ack", "n": 1, "match_id": 1, "seq": 12, "view": {
    "columns": [{"down": 4, "up": [[13 - i, "S"] for i in range(6)]} for _ in range(10)],
    "stock": 5, "foundations": 0, "actions": 12}, "score": 480, "delta": -1, "events": [],
    "status": "playing", "time_left_ms": 880000, "duplicate": False}).encode()


async def appends(client: redis.Redis, prefix: str, seconds: float, batch: int,
                  retention: int) -> float:
    streams = RedisEventStreams(client, prefix=prefix, owner="bench", retention=retention,
                                ttl_seconds=60, channel_key=lambda c: f"{prefix}cs:{c}")
    done, n, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(batch):
            n += 1
            streams.append(f"s{n % 1000}", 1, n, FRAME)
        await streams.flushed()
        done += batch
    return done / (time.perf_counter() - started)


async def publishes(client: redis.Redis, prefix: str, seconds: float, batch: int) -> float:
    script = BatchScript(client, [KEPT])
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        await script.run([OpCall(KEPT, [f"{prefix}cs:match:{i % 500}"],
                                 [f"{prefix}match:{i % 500}", FRAME, 60])
                          for i in range(batch)])
        done += batch
    return done / (time.perf_counter() - started)


async def memory_per_event(client: redis.Redis, prefix: str, retention: int) -> float:
    streams = RedisEventStreams(client, prefix=prefix, owner="bench", retention=retention,
                                ttl_seconds=60, channel_key=lambda c: c)
    for n in range(1, retention + 1):
        streams.append("memory", 1, n, FRAME)
    await streams.flushed()
    used = await client.memory_usage(streams.keys("memory")[0], samples=0)
    return float(used or 0) / retention


async def redis_cpu_s(client: redis.Redis) -> float:
    """Redis's own CPU time so far (user + system): what it spent, whatever the client."""
    cpu = await client.info("cpu")
    return float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


async def run(args: argparse.Namespace) -> dict[str, Any]:
    client = redis.Redis.from_url(args.url)
    prefix = f"bench{uuid.uuid4().hex[:8]}:"
    try:
        before = await redis_cpu_s(client)
        append_rate = await appends(client, prefix, args.seconds, args.batch, args.retention)
        middle = await redis_cpu_s(client)
        publish_rate = await publishes(client, prefix, args.seconds, args.batch)
        after = await redis_cpu_s(client)
        results = {
            "appends_per_s": round(append_rate),
            # Redis's CPU per call (the client, on the same loaded cores, limits the rates
            # above; this is what caps one Redis core): the shared Redis may be busy with
            # others too, so it is an upper bound.
            "redis_cpu_us_per_append": round((middle - before) * 1e6
                                             / (append_rate * args.seconds), 1),
            "publishes_per_s": round(publish_rate),
            "redis_cpu_us_per_publish": round((after - middle) * 1e6
                                              / (publish_rate * args.seconds), 1),
            "bytes_per_kept_event": round(await memory_per_event(client, prefix, args.retention)),
            "frame_bytes": len(FRAME), "batch": args.batch, "retention": args.retention,
        }
    finally:
        async for key in client.scan_iter(match=f"{prefix}*", count=1000):
            await client.delete(key)
        await client.aclose()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--retention", type=int, default=200)
    parser.add_argument("--output", type=Path, default=RESULTS / "redis_streams.json")
    args = parser.parse_args()
    results = asyncio.run(run(args))
    print(table([("figure", "value"), *((k, str(v)) for k, v in results.items())]))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
