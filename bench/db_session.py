"""What one short database session costs: the app's engine (``app.db.engine.make_engine``)
against SQLAlchemy's pre-ping, on PostgreSQL and SQLite.

    python -m bench.db_session                 # 2,000 sessions per round, 3 rounds each
    python -m bench.db_session --sessions 500

A session here is what a REST read or a WebSocket hello makes: check a connection out,
one ``SELECT``, give it back. Rounds alternate between the two engines (the machine is
shared: the pairs are what to compare). Prints a table (wall time and this process's CPU
per session, median of the rounds) and writes ``bench/results/db_session.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.db.engine import make_engine, make_session_factory
from bench.database import create_pg_database, drop_pg_database, pg_url
from bench.stats import table

RESULTS = Path(__file__).resolve().parent / "results" / "db_session.json"
WARM_UP = 50


async def _round(engine: AsyncEngine, sessions: int) -> tuple[float, float]:
    """(wall µs, CPU µs) per session."""
    factory = make_session_factory(engine)
    for _ in range(WARM_UP):
        async with factory() as session:
            await session.execute(text("SELECT 1"))
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(sessions):
        async with factory() as session:
            await session.execute(text("SELECT 1"))
    return ((time.perf_counter() - wall) / sessions * 1e6,
            (time.process_time() - cpu) / sessions * 1e6)


async def _measure(url: str, sessions: int, rounds: int) -> dict[str, dict[str, float]]:
    engines = {"app engine": lambda: make_engine(url),
               "pre-ping": lambda: create_async_engine(url, pool_pre_ping=True)}
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in engines}
    for _ in range(rounds):
        for name, make in engines.items():
            engine = make()
            try:
                runs[name].append(await _round(engine, sessions))
            finally:
                await engine.dispose()
    return {name: {"wall_us": round(statistics.median(w for w, _ in found), 1),
                   "cpu_us": round(statistics.median(c for _, c in found), 1)}
            for name, found in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    database = create_pg_database()
    try:
        with tempfile.TemporaryDirectory() as folder:
            urls = {"postgresql": pg_url(database),
                    "sqlite": f"sqlite+aiosqlite:///{folder}/bench.db"}
            found = {backend: asyncio.run(_measure(url, args.sessions, args.rounds))
                     for backend, url in urls.items()}
    finally:
        drop_pg_database(database)
    rows = [("database", "engine", "wall µs / session", "CPU µs / session")]
    for backend, engines in found.items():
        for name, figures in engines.items():
            rows.append((backend, name, f"{figures['wall_us']:.0f}", f"{figures['cpu_us']:.0f}"))
    print(table(rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "sessions": args.sessions, "rounds": args.rounds, "results": found}, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
