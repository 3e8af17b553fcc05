"""Event-loop lag while the deal pool solves: its worker as a thread or a child process.

    python -m bench.deal_pool_lag                  # 15 s per mode
    python -m bench.deal_pool_lag --seconds 5

The solver is pure Python and holds the interpreter's lock while it runs: a solving
thread delays every wake-up of the event loop. For each mode (nothing solving; the pool
filling 4-suit rated bins on a thread; the same in a child process) the loop sleeps 5 ms
again and again and the overshoot of each sleep is its lag. Prints a table (p50 / p99 /
max in ms) and writes ``bench/results/deal_pool_lag.json``. The default worker of the
server is the child process (setting ``deal_pool_worker``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

from app.services import deals
from app.services.deal_pool import DIFFICULTIES, DealPool
from bench.stats import percentile, table

RESULTS = Path(__file__).resolve().parent / "results" / "deal_pool_lag.json"
TICK_S = 0.005
FILLING = {(4, level): 1_000 for level in DIFFICULTIES}  # never full: solving throughout


async def lags(seconds: float) -> list[float]:
    """Overshoots (ms) of back-to-back 5 ms sleeps for ``seconds``."""
    found: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        await asyncio.sleep(TICK_S)
        found.append((time.perf_counter() - started - TICK_S) * 1e3)
    return sorted(found)


def summary(mode: str, found: list[float]) -> dict[str, Any]:
    return {"mode": mode, "sleeps": len(found), "p50_ms": round(percentile(found, 0.5), 2),
            "p99_ms": round(percentile(found, 0.99), 2), "max_ms": round(found[-1], 2)}


def pool(worker: str) -> DealPool:
    if worker == "process":
        return DealPool(sizes=FILLING, make=deals.pooled_deal, processes=True)
    cancel = threading.Event()
    return DealPool(sizes=FILLING, make=partial(deals.pooled_deal, cancelled=cancel),
                    cancel=cancel)


async def run(seconds: float) -> list[dict[str, Any]]:
    results = [summary("nothing solving", await lags(seconds))]
    for worker in ("thread", "process"):
        filling = pool(worker)
        filling.start()
        await asyncio.sleep(2.0)  # the child process is up and solving
        results.append(summary(f"pool solving on a {worker}", await lags(seconds)))
        await filling.stop()
    return results


def report(command: str, title: str, modes: list[dict[str, Any]], out: Path,
           *, counted: str | None = None) -> None:
    """Print the modes' lags as a table (with the per-mode count ``counted``, if any) and
    write them, with the machine, as JSON to ``out``."""
    extra = () if counted is None else (counted,)
    rows: list[tuple[str, ...]] = [("mode", "sleeps", "p50 ms", "p99 ms", "max ms", *extra)]
    rows += [(m["mode"], str(m["sleeps"]), f"{m['p50_ms']:.2f}", f"{m['p99_ms']:.2f}",
              f"{m['max_ms']:.2f}", *(str(m[key]) for key in extra)) for m in modes]
    print(f"\n{title}, load {os.getloadavg()[0]:.2f}")
    print(table(rows))
    result = {
        "command": command,
        "python": platform.python_version(), "cpus": os.cpu_count(),
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "modes": modes,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")


def command_line(module: str, argv: list[str] | None) -> str:
    return f"python -m {module} " + " ".join(sys.argv[1:] if argv is None else argv)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="measured per mode")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where to write the JSON")
    args = parser.parse_args(argv)
    measured = asyncio.run(run(args.seconds))
    report(command_line("bench.deal_pool_lag", argv), "Event-loop lag (5 ms sleeps)",
           measured, args.out)


if __name__ == "__main__":
    main()
