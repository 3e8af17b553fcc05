"""REST latency, in process (ASGI, no sockets), on a fresh migrated SQLite file.

Run ``python -m bench.rest`` (``--quick`` for a short run). Prints a table and writes
``bench/results/rest.json``. Measures the request paths of issue 4: sign up, create a
table, the lobby (with many open tables), join (starts a match: 1-suit joins include
the solvable-deal search, 4-suit joins do not), player info, history and leaderboard.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from alembic.config import Config
from rich.console import Console
from rich.table import Table

from alembic import command
from app.main import create_app
from app.settings import Settings
from bench.stats import summary_ms

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results" / "rest.json"


def migrate(url: str) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "alembic"))
    config.attributes["database_url"] = url
    config.attributes["configure_logger"] = False
    command.upgrade(config, "head")


async def timed(samples: list[float], call: Callable[[], Awaitable[httpx.Response]],
                expect: int) -> httpx.Response:
    start = time.perf_counter()
    response = await call()
    samples.append(time.perf_counter() - start)
    if response.status_code != expect:
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text}")
    return response


async def run(count: int, url: str) -> dict[str, dict[str, float]]:
    settings = Settings(database_url=url, player_create_burst=10**9,
                        player_create_per_minute=10**9)
    app = create_app(settings)
    samples: dict[str, list[float]] = {name: [] for name in (
        "POST /players", "POST /tables", "GET /tables (lobby)", "POST join 4 suits",
        "POST join 1 suit (solver)", "GET /players/{id}", "GET history", "GET leaderboard",
    )}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        tokens = []
        for index in range(2 * count):
            response = await timed(samples["POST /players"], lambda i=index: client.post(
                "/api/players", json={"name": f"Player{i}"}), 201)
            tokens.append({"Authorization": f"Bearer {response.json()['token']}"})
        tables = []
        for index in range(count):
            suits = 1 if index % 2 else 4
            response = await timed(samples["POST /tables"], lambda s=suits, i=index: client.post(
                "/api/tables", json={"suits": s}, headers=tokens[i]), 201)
            tables.append((response.json()["id"], suits))
        for index in range(count):
            await timed(samples["GET /tables (lobby)"], lambda i=index: client.get(
                "/api/tables?page_size=20", headers=tokens[count + i]), 200)
        for index, (table_id, suits) in enumerate(tables):
            name = "POST join 1 suit (solver)" if suits == 1 else "POST join 4 suits"
            await timed(samples[name], lambda t=table_id, i=index: client.post(
                f"/api/tables/{t}/join", headers=tokens[count + i]), 200)
        for index in range(count):
            await timed(samples["GET /players/{id}"],
                        lambda i=index: client.get(f"/api/players/{i + 1}"), 200)
            await timed(samples["GET history"],
                        lambda i=index: client.get(f"/api/players/{i + 1}/history"), 200)
            await timed(samples["GET leaderboard"],
                        lambda: client.get("/api/leaderboard?suits=1"), 200)
    await app.state.db_engine.dispose()
    return {name: summary_ms(values) for name, values in samples.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short run (20 tables)")
    args = parser.parse_args(argv)
    count = 20 if args.quick else 100
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/bench.db"
        migrate(url)
        results = asyncio.run(run(count, url))
    table = Table(title=f"REST latency, in process, SQLite ({count} tables)")
    for column in ("request", "count", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(column, justify="left" if column == "request" else "right")
    for name, row in results.items():
        table.add_row(name, str(row["count"]), f"{row['p50_ms']:.2f}", f"{row['p95_ms']:.2f}",
                      f"{row['p99_ms']:.2f}")
    Console().print(table)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {"python": sys.version.split()[0], "machine": platform.machine(),
                           "tables": count, "results": results}
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
