"""Event-loop lag while requests' solver calls run: on a thread or in a solver process.

    python -m bench.solver_lag                  # 15 s per mode
    python -m bench.solver_lag --seconds 5

What a server process's players feel while one of them asks the solver: one caller asks
for rescues on a 4-suit position back to back (each a search of up to 20,000 nodes, the
heaviest request call), through ``app.runtime.solver_worker.off_loop``, once with no solver
process installed (a thread of this process, as every request call was before) and once
with one installed (a spawned child). Meanwhile the loop sleeps 5 ms again and again; the
overshoot of each sleep is its lag (as ``bench.deal_pool_lag`` measures the deal pool).
Prints a table (p50 / p99 / max in ms, calls answered) and writes
``bench/results/solver_lag.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

from app.engine.deal import deal
from app.engine.rules import preset
from app.rewards.assist import rescue_actions
from app.runtime import solver_worker
from bench.deal_pool_lag import command_line, lags, report, summary

RESULTS = Path(__file__).resolve().parent / "results" / "solver_lag.json"
RESCUE_NODES = 20_000


async def asking(answered: list[int]) -> None:
    """Rescues on a fresh 4-suit deal, one after the other, until cancelled."""
    state = deal(7, preset("classic", 4))
    while True:
        await solver_worker.off_loop(rescue_actions, state, nodes=RESCUE_NODES)
        answered[0] += 1


async def measured(mode: str, seconds: float) -> dict[str, Any]:
    answered = [0]
    caller = asyncio.create_task(asking(answered))
    await asyncio.sleep(1.0)  # a child is spawned and solving
    answered[0] = 0
    found = await lags(seconds)
    caller.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await caller
    return summary(mode, found) | {"calls": answered[0]}


async def run(seconds: float) -> list[dict[str, Any]]:
    results = [summary("nothing solving", await lags(seconds)) | {"calls": 0}]
    solver_worker.shutdown()
    results.append(await measured("rescues on a thread", seconds))
    solver_worker.install(1)
    try:
        await solver_worker.off_loop(os.getpid)  # spawned before the measure
        results.append(await measured("rescues in a solver process", seconds))
    finally:
        solver_worker.shutdown()
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="measured per mode")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where to write the JSON")
    args = parser.parse_args(argv)
    found = asyncio.run(run(args.seconds))
    report(command_line("bench.solver_lag", argv),
           "Event-loop lag (5 ms sleeps) while rescues are asked", found, args.out,
           counted="calls")


if __name__ == "__main__":
    main()
