"""Solo start benchmark: how long ``POST /api/solo/games`` takes for a random solvable deal.

    python -m bench.solo_start                     # 15 starts per suit count, ~3 s apart
    python -m bench.solo_start --starts 8 --gap 1  # a quicker, harsher run

Against a real server (``spider serve``'s entry point, SQLite file, the duel deal pool
off so that only the solo pool solves in the background), one player:

1. **cold, no pool**: a server with ``SOLO_POOL_*_SIZE=0`` on a fresh database, its first
   4-suit start (the solver runs in the request: what issue 24 measured as 16.1 s);
2. **pool**: a server with the default pool sizes, once its pool is full (a server up a
   minute), ``--starts`` starts per suit count (1, 2, 4 suits, "solvable only", random
   number) at random (exponential) gaps of mean ``--gap`` seconds, as players come;
3. **restart**: that server stopped (SIGTERM) and started again on the same database:
   its first 4-suit start, as soon as it answers ``/readyz``.

Prints a table (p50 / p95 / max in ms, and how many starts found a pooled deal) and
writes ``bench/results/solo_start.json``. Targets (issue 24): p95 ≤ 1 s for 1 and 2 suits,
≤ 2 s for 4 suits and for the first 4-suit start after a restart.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.database import sqlite_url, upgrade
from bench.server import Server, start_server
from bench.stats import percentile, table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "solo_start.json"
TARGET_P95_S = {1: 1.0, 2: 1.0, 4: 2.0}
RESTART_TARGET_S = 2.0
SIZES = {1: 4, 2: 4, 4: 16}  # the settings' defaults (SOLO_POOL_SIZE, ..._FOUR_SUITS_SIZE)


def env_for(url: str, *, pool: bool) -> dict[str, str]:
    return {
        "SPIDER_DATABASE_URL": url, "SPIDER_SECRET_KEY": os.urandom(16).hex(),
        "SPIDER_LOG_LEVEL": "WARNING",
        "SPIDER_DEAL_POOL_SIZE": "0", "SPIDER_DEAL_POOL_RATED_SIZE": "0",
        "SPIDER_SOLO_POOL_SIZE": str(SIZES[1]) if pool else "0",
        "SPIDER_SOLO_POOL_FOUR_SUITS_SIZE": str(SIZES[4]) if pool else "0",
    }


def ready_counts(path: Path) -> dict[int, int]:
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT suits, count(*) FROM solo_pool GROUP BY suits"))


def wait_full(path: Path, timeout: float) -> float:
    """Seconds until the pool's table holds every suit count's size."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        counts = ready_counts(path)
        if all(counts.get(suits, 0) >= size for suits, size in SIZES.items()):
            return time.monotonic() - began
        time.sleep(0.5)
    raise TimeoutError(f"the solo pool was not full after {timeout} s: {ready_counts(path)}")


def signup(server: Server, name: str) -> dict[str, str]:
    response = httpx.post(f"{server.http}/api/players", json={"name": name}, timeout=30)
    response.raise_for_status()
    return {"Authorization": f"Bearer {response.json()['token']}"}


def timed_start(server: Server, auth: dict[str, str], suits: int) -> float:
    began = time.perf_counter()
    response = httpx.post(f"{server.http}/api/solo/games", headers=auth, timeout=120,
                          json={"options": {"suits": suits, "solvable_only": True}})
    took = time.perf_counter() - began
    response.raise_for_status()
    return took


def summary(samples: list[float], pooled: int | None = None) -> dict[str, Any]:
    ordered = sorted(samples)
    return {"count": len(ordered), "p50_ms": round(percentile(ordered, 0.5) * 1e3, 1),
            "p95_ms": round(percentile(ordered, 0.95) * 1e3, 1),
            "max_ms": round(ordered[-1] * 1e3, 1), "pooled": pooled,
            "samples_ms": [round(s * 1e3, 1) for s in samples]}


def run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    results: dict[str, Any] = {}
    if not args.no_cold:
        cold_db = workdir / "cold.db"
        upgrade(sqlite_url(cold_db))
        server = start_server(env=env_for(sqlite_url(cold_db), pool=False),
                              log_path=workdir / "cold.log")
        try:
            auth = signup(server, "cold")
            results["cold_first_4"] = summary([timed_start(server, auth, 4)])
        finally:
            server.stop()

    path = workdir / "pool.db"
    url = sqlite_url(path)
    upgrade(url)
    server = start_server(env=env_for(url, pool=True), log_path=workdir / "pool.log")
    try:
        results["fill_s"] = round(wait_full(path, args.fill_timeout), 1)
        auth = signup(server, "solo")
        rng = random.Random(args.seed)
        for suits in (1, 2, 4):
            samples, pooled = [], 0
            for _ in range(args.starts):
                time.sleep(rng.expovariate(1 / args.gap) if args.gap > 0 else 0)
                before = ready_counts(path).get(suits, 0)
                samples.append(timed_start(server, auth, suits))
                pooled += ready_counts(path).get(suits, 0) < before
            results[f"suits_{suits}"] = summary(samples, pooled)
            # let the pool refill before the next suit count (a server's quiet minute)
            wait_full(path, args.fill_timeout)
    finally:
        server.stop()
    before = ready_counts(path).get(4, 0)
    server = start_server(env=env_for(url, pool=True), log_path=workdir / "restart.log")
    try:
        auth = signup(server, "restart")
        took = timed_start(server, auth, 4)
        results["restart_first_4"] = summary([took], int(ready_counts(path).get(4, 0) < before))
        results["restart_ready_before"] = before
    finally:
        server.stop()
    return results


def machine() -> dict[str, Any]:
    load = os.getloadavg()
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "?"
    return {"python": platform.python_version(), "cpus": os.cpu_count(),
            "load_1m": round(load[0], 2), "commit": commit}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=15, help="starts per suit count")
    parser.add_argument("--gap", type=float, default=3.0, help="mean seconds between starts")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--fill-timeout", type=float, default=600.0)
    parser.add_argument("--no-cold", action="store_true",
                        help="skip the cold start without a pool (a minute on a busy machine)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = run(args, Path(tmp))
    rows = [("case", "starts", "pooled", "p50 ms", "p95 ms", "max ms", "target p95", "ok")]
    cases = [("cold, no pool: first 4-suit", "cold_first_4", 4)]
    cases += [(f"pool: {s} suit{'s' if s > 1 else ''}", f"suits_{s}", s) for s in (1, 2, 4)]
    cases += [("restart: first 4-suit", "restart_first_4", 4)]
    for label, key, suits in cases:
        if key not in results:
            continue
        found = results[key]
        target = RESTART_TARGET_S if key == "restart_first_4" else TARGET_P95_S[suits]
        ok = "-" if key.startswith("cold") else ("yes" if found["p95_ms"] <= target * 1e3
                                                 else "NO")
        rows.append((label, str(found["count"]), str(found["pooled"] if found["pooled"]
                                                      is not None else "-"),
                     f"{found['p50_ms']:.0f}", f"{found['p95_ms']:.0f}",
                     f"{found['max_ms']:.0f}",
                     "-" if key.startswith("cold") else f"{target * 1e3:.0f}", ok))
    print(table(rows))
    print(f"pool filled from empty in {results['fill_s']} s (sizes {SIZES}); "
          f"{results['restart_ready_before']} 4-suit deals ready at the restart")
    report = {"machine": machine(), "args": {"starts": args.starts, "gap": args.gap,
                                             "seed": args.seed},
              "sizes": SIZES, "results": results}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
