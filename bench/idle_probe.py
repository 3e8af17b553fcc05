"""Quick probe: server memory per idle WebSocket on the echo endpoint, per ws implementation.

`python -m bench.idle_probe --connections 2000` (a development aid for tuning; the real
figures come from `python -m bench.load`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect

from bench.server import raise_nofile, start_server
from bench.stats import mib


async def hold(url: str, count: int) -> list[object]:
    gate = asyncio.Semaphore(100)
    sockets: list[object] = []

    async def one() -> None:
        async with gate:
            # The client offers per-message deflate, as browsers do.
            sockets.append(await connect(url, max_queue=4, ping_interval=None))

    await asyncio.gather(*(one() for _ in range(count)))
    return sockets


async def probe(impl: str, deflate: bool, count: int) -> dict[str, object]:
    tmp = Path(tempfile.mkdtemp())
    server = start_server(
        env={
            "SPIDER_BENCH_ECHO": "true",
            "SPIDER_WS_IMPLEMENTATION": impl,
            "SPIDER_WS_PER_MESSAGE_DEFLATE": str(deflate).lower(),
            "SPIDER_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/b.db",
        },
        log_path=tmp / "server.log",
        nofile=count + 1000,
    )
    try:
        await asyncio.sleep(0.5)
        before = server.rss
        started = time.perf_counter()
        sockets = await hold(f"{server.ws}/bench/echo", count)
        await asyncio.sleep(2)
        after = server.rss
        for s in sockets:
            await s.close()  # type: ignore[attr-defined]
        return {
            "ws": impl,
            "deflate": deflate,
            "connections": count,
            "connect_s": round(time.perf_counter() - started, 1),
            "rss_before_mib": mib(before),
            "rss_after_mib": mib(after),
            "kib_per_connection": round((after - before) / count / 1024, 1),
        }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=2000)
    args = parser.parse_args()
    raise_nofile(args.connections + 1000)
    for impl, deflate in [
        ("lean", False),
        ("websockets", True),
        ("websockets", False),
        ("websockets-sansio", True),
        ("websockets-sansio", False),
    ]:
        print(json.dumps(asyncio.run(probe(impl, deflate, args.connections))), flush=True)


if __name__ == "__main__":
    main()
