"""Hint benchmark: how long one ``hint`` (the WebSocket ``hint`` request's search) takes.

    python -m bench.hint                 # 30 deals per suit count, 40 positions each
    python -m bench.hint --deals 5       # a quick run

Positions come from seeded random play (no undo) on the generator's deals under the
``duel`` rules, one position every few actions; each is timed once, in one thread. The
server runs the same call in a worker thread. Prints a table and writes
``bench/results/hint.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from pathlib import Path
from typing import Any

from app.engine.actions import Undo
from app.engine.deal import deal
from app.engine.game import legal_actions, push
from app.engine.rules import preset
from app.engine.solver.advice import hint
from app.engine.state import GameState

RESULTS = Path(__file__).resolve().parent / "results" / "hint.json"
POSITIONS = 40
STRIDE = 3
"""Random actions between two timed positions."""


def positions(start: GameState, rng: random.Random) -> list[GameState]:
    found, state = [start], start
    while len(found) < POSITIONS and not state.won:
        for _ in range(STRIDE):
            actions = [a for a in legal_actions(state) if not isinstance(a, Undo)]
            if not actions:
                return found
            state = push(state, rng.choice(actions))
        found.append(state)
    return found


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


def run(suits: int, deals: int) -> dict[str, Any]:
    rules = preset("duel", suits)
    times: list[float] = []
    for number in range(1, deals + 1):
        rng = random.Random(number)
        for state in positions(deal(number, rules), rng):
            started = time.perf_counter()
            hint(state)
            times.append((time.perf_counter() - started) * 1000)
    return {"suits": suits, "deals": deals, "positions": len(times),
            "median_ms": round(statistics.median(times), 3),
            "p95_ms": round(percentile(times, 95), 3),
            "p99_ms": round(percentile(times, 99), 3),
            "max_ms": round(max(times), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    args = parser.parse_args()
    rows = [run(suits, args.deals) for suits in (1, 2, 4)]
    print(f"{'suits':>5} {'positions':>10} {'median ms':>10} {'p95 ms':>8} {'p99 ms':>8} "
          f"{'max ms':>8}")
    for row in rows:
        print(f"{row['suits']:>5} {row['positions']:>10} {row['median_ms']:>10} "
              f"{row['p95_ms']:>8} {row['p99_ms']:>8} {row['max_ms']:>8}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "machine": platform.platform(), "python": platform.python_version(),
        "positions_per_deal": POSITIONS, "stride": STRIDE, "rows": rows,
    }, indent=2) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
