"""Deal-pool benchmark: how long ``choose_deal`` takes to produce a new match's deal.

    python -m bench.deal_pool                       # 40 matches, 0.5 s apart on average
    python -m bench.deal_pool --suits 4 --difficulty hard --matches 10 --gap 5 --burst 0
    python -m bench.deal_pool --matches 20 --gap 0.2 --burst 8   # a quicker run
    python -m bench.deal_pool --busy 1              # with one CPU-burning process beside

N consecutive new matches (``--suits``, default 2; ``--difficulty``, default any) arrive
at random (exponential) gaps of mean ``--gap`` seconds, the same schedule for every mode:

- ``no pool``: ``choose_deal`` solves each deal as it is asked for (deal_pool_size 0);
- ``pool``: a pool of ``--size`` deals per bin of that suit count, filled before the first match (a
  server that has been up a few seconds), refilling in the background as in the server;
- ``pool, burst``: ``--burst`` matches at once against a freshly filled pool (the first
  ``--size`` are taken from the pool, the rest wait for the solver).

Prints a table (p50 / p95 / max in ms, and how many deals came from the pool) and writes
``bench/results/deal_pool.json``. The target (issue 3) is p95 <= 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from app.services import deals
from app.services.deal_pool import DIFFICULTIES, SOLVABLE, Bin, DealPool
from bench.stats import percentile, table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "deal_pool.json"
TARGET_P95_S = 2.0


def schedule(matches: int, gap: float, seed: int) -> list[float]:
    """Seconds to wait before each match (exponential gaps, fixed by ``seed``)."""
    rng = random.Random(seed)
    return [rng.expovariate(1 / gap) if gap > 0 else 0.0 for _ in range(matches)]


def bins(suits: int, difficulty: str) -> list[Bin]:
    """The pool bins a match of ``suits`` and ``difficulty`` takes its deal from."""
    if difficulty != "any":
        return [(suits, difficulty)]
    if suits == 4:
        return [(4, level) for level in DIFFICULTIES]
    return [(suits, SOLVABLE)]


async def timed_choice(pool: DealPool | None, args: argparse.Namespace) -> tuple[float, bool]:
    watched = bins(args.suits, args.difficulty)
    before = sum(pool.ready(b) for b in watched) if pool is not None else 0
    started = time.perf_counter()
    await deals.choose_deal(suits=args.suits, difficulty=args.difficulty, pool=pool)
    seconds = time.perf_counter() - started
    # The pool shrank if the deal came from it (refills only add between awaits; a search
    # may add other difficulties' finds, never to the asked bin).
    after = sum(pool.ready(b) for b in watched) if pool is not None else 0
    pooled = pool is not None and before > 0 and after < before
    return seconds, pooled


async def steady(gaps: list[float], pool: DealPool | None,
                 args: argparse.Namespace) -> list[tuple[float, bool]]:
    samples = []
    for gap in gaps:
        await asyncio.sleep(gap)
        samples.append(await timed_choice(pool, args))
    return samples


async def burst(pool: DealPool, args: argparse.Namespace) -> list[tuple[float, bool]]:
    return list(await asyncio.gather(*(timed_choice(pool, args) for _ in range(args.burst))))


def summary(name: str, samples: list[tuple[float, bool]]) -> dict[str, Any]:
    times = sorted(seconds for seconds, _ in samples)
    return {
        "mode": name,
        "matches": len(samples),
        "from_pool": sum(pooled for _, pooled in samples),
        "p50_ms": round(percentile(times, 0.50) * 1e3, 3),
        "p95_ms": round(percentile(times, 0.95) * 1e3, 3),
        "max_ms": round(times[-1] * 1e3, 3) if times else None,
        "target_met": percentile(times, 0.95) <= TARGET_P95_S,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    gaps = schedule(args.matches, args.gap, args.seed)
    results = [summary("no pool", await steady(gaps, None, args))]

    rated = args.difficulty != "any" or args.suits == 4  # every difficulty's bin fills
    sizes = dict.fromkeys([(args.suits, level) for level in DIFFICULTIES] if rated
                          else bins(args.suits, "any"), args.size)
    pool = DealPool(sizes=sizes, make=deals.pooled_deal)
    started = time.perf_counter()
    pool.start()
    await pool.filled()
    fill_s = time.perf_counter() - started
    try:
        results.append(summary("pool", await steady(gaps, pool, args)))
        if args.burst > 0:
            await pool.filled()
            results.append(summary("pool, burst", await burst(pool, args)))
    finally:
        await pool.stop()
    return {"fill_s": round(fill_s, 3), "modes": results}


def burners(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes spinning on the CPU: a machine busy with other work."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="new matches per mode")
    parser.add_argument("--gap", type=float, default=0.5, help="mean seconds between matches")
    parser.add_argument("--size", type=int, default=4, help="pool size per bin")
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=2)
    parser.add_argument("--difficulty", choices=("any", *DIFFICULTIES), default="any")
    parser.add_argument("--burst", type=int, default=8, help="matches at once (0: skip)")
    parser.add_argument("--busy", type=int, default=0, help="CPU-burning processes beside")
    parser.add_argument("--seed", type=int, default=1, help="seed of the arrival schedule")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where to write the JSON")
    args = parser.parse_args(argv)

    busy = burners(args.busy)
    try:
        measured = asyncio.run(run(args))
    finally:
        for process in busy:
            process.kill()
            process.wait()
    rows = [("mode", "matches", "from pool", "p50 ms", "p95 ms", "max ms", "p95 <= 2 s")]
    rows += [(m["mode"], str(m["matches"]), str(m["from_pool"]), f"{m['p50_ms']:.2f}",
              f"{m['p95_ms']:.2f}", f"{m['max_ms']:.2f}", "met" if m["target_met"] else "NOT met")
             for m in measured["modes"]]
    print(f"\n{args.suits}-suit deal ({args.difficulty}) for a new match: {args.matches} "
          f"matches, mean gap "
          f"{args.gap} s, pool size {args.size}, {args.busy} busy process(es), "
          f"load {os.getloadavg()[0]:.2f}")
    print(table(rows))
    print(f"filling the pool from empty ({args.size} per bin): {measured['fill_s']} s")
    result = {
        "command": "python -m bench.deal_pool " + " ".join(sys.argv[1:] if argv is None else argv),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "settings": vars(args) | {"out": str(args.out)},
        "target_p95_s": TARGET_P95_S,
        **measured,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
