"""The collector's full pass after a minute of flat-out duels, held the way the server holds them.

Run ``python -m bench.engine_gc`` (``make bench``; ``--seconds 5`` for a smoke run).
Each engine, today's and the one of ``--baseline`` (see bench/baseline.py), plays in its
own process, alternating ``--runs`` times, what a server holds after ``--seconds`` of
duels at ``--rate`` actions per second (6,000: issue 14's flat-out figure for one
worker), played as fast as the engine allows:

- ``--players`` games are live at once, each as app/rooms/match.py's ``SeatState`` keeps
  it: a ``ScoredGame``, its actions as JSON dicts, a ``ViewMemo`` and the last answer
  (seq, view, score). Built on the engine and scoring alone, not on the rooms layer.
- Bots take turns round robin as fast as the engine lets them, with bench.engine's
  policy (in-suit builds, undos, deals, over every preset and suit count). A turn is
  what the server does for an action: legal actions for the bot, ``play``, the action's
  JSON, the view.
- A game ends when won, when nothing is legal, or at its length (drawn between 1 and
  twice ``--game-actions``, standing in for the clock); it then stays among the last
  ``--settled`` finished games (the server's settled-match cache) and a new game on the
  next deal takes its seat.
- The collector runs with the server's thresholds (``GC_THRESHOLDS``'s default).

Then the process times a full ``gc.collect()`` three times (CPU time, the verdict's
figure, and wall time) and counts the objects the collector tracks. The table gives
both engines and the target (issue 14: a full pass of at most 100 ms after 60 s of
flat-out duels); JSON goes to ``bench/results/engine_gc.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import sys
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from app.engine.deal import deal
from app.engine.game import legal_actions
from app.engine.rules import preset
from app.engine.view import ViewMemo, player_view
from app.scoring.play import ScoredGame
from bench import baseline
from bench.baseline import ratio, run_worker
from bench.engine import KINDS, choose

RESULTS = Path(__file__).parent / "results" / "engine_gc.json"
TARGET_FULL_PASS_MS = 100.0
SERVER_THRESHOLDS = (100, 1, 20_000)  # app/settings.py GC_THRESHOLDS' default
FIRST_DEAL = 5_000


class HeldGame:
    """What the server keeps of one player's game (app/rooms/match.py's SeatState)."""

    __slots__ = ("actions", "game", "last", "length", "views")

    def __init__(self, game: ScoredGame, length: int) -> None:
        self.game = game
        self.actions: list[dict[str, Any]] = []
        self.views = ViewMemo()
        self.last: dict[str, Any] | None = None
        self.length = length


def new_game(number: int, rng: random.Random, mean_length: int) -> HeldGame:
    preset_name, suits = KINDS[number % len(KINDS)]
    start = ScoredGame.start(deal(number, preset(preset_name, suits)))
    return HeldGame(start, rng.randint(1, 2 * mean_length))


def turn(held: HeldGame, rng: random.Random) -> bool:
    """One bot action, as the server handles it; False when the game is over."""
    state = held.game.state
    legal = legal_actions(state)
    if not legal or state.won or len(held.actions) >= held.length:
        return False
    action = choose(state, legal, rng)
    held.game = held.game.play(action)[0]
    held.actions.append(action.to_json())
    held.last = {
        "seq": len(held.actions),
        "view": player_view(held.game.state, held.views),
        "score": held.game.points,
    }
    return True


def duels(actions: int, players: int, mean_length: int, settled: int) -> dict[str, Any]:
    """The worker's part: play ``actions`` actions flat out, then time full collections."""
    rng = random.Random(14)
    next_deal = FIRST_DEAL
    seats = []
    for _ in range(players):
        seats.append(new_game(next_deal, rng, mean_length))
        next_deal += 1
    finished: deque[HeldGame] = deque(maxlen=settled)
    played = games_done = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while played < actions:
        for seat in range(min(players, actions - played)):
            held = seats[seat]
            if turn(held, rng):
                played += 1
            else:
                finished.append(held)
                seats[seat] = new_game(next_deal, rng, mean_length)
                next_deal += 1
                games_done += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    passes = []
    for _ in range(3):
        started, started_cpu = time.perf_counter(), time.process_time()
        gc.collect()
        passes.append(((time.process_time() - started_cpu) * 1e3,
                       (time.perf_counter() - started) * 1e3))
    tracked = gc.get_objects()
    kinds = Counter(type(obj).__name__ for obj in tracked).most_common(6)
    held_actions = sum(len(held.actions) for held in (*seats, *finished))
    return {
        "seconds": wall, "cpu_seconds": cpu, "actions": played, "games_finished": games_done,
        "actions_per_cpu_second": played / cpu, "held_actions": held_actions,
        "held_games": len(seats) + len(finished),
        "full_pass_cpu_ms": passes[0][0], "full_pass_wall_ms": passes[0][1],
        "best_full_pass_cpu_ms": min(cpu_ms for cpu_ms, _ in passes),
        "tracked_objects": len(tracked), "tracked_per_held_action": len(tracked) / held_actions,
        "tracked_kinds": kinds,
        "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def print_table(result: dict[str, Any]) -> None:
    table = Table(title=(
        f"full collection after {result['seconds']:g} s of duels at {result['rate']:,} actions/s"
        f" ({result['players']:,} players); baseline: engine of {result['baseline'][:10]}"
    ))
    columns = ("run", "engine", "actions/CPU s", "held actions", "tracked", "per action",
               "full pass CPU ms", "wall ms", "best CPU ms", "RSS MiB")
    for column in columns:
        table.add_column(column, justify="left" if column in ("run", "engine") else "right")
    for run in result["runs"]:
        for name in ("new", "baseline"):
            if name not in run:
                continue
            got = run[name]
            table.add_row(
                str(run["run"]), name, f"{got['actions_per_cpu_second']:,.0f}",
                f"{got['held_actions']:,}", f"{got['tracked_objects']:,}",
                f"{got['tracked_per_held_action']:.3f}", f"{got['full_pass_cpu_ms']:.1f}",
                f"{got['full_pass_wall_ms']:.1f}", f"{got['best_full_pass_cpu_ms']:.1f}",
                f"{got['max_rss_mib']:,.0f}",
            )
    console = Console(width=max(130, Console().width))
    console.print(table)
    worst = result["worst_full_pass_cpu_ms"]
    verdict = "meets" if result["meets_target"] else "MISSES"
    line = (f"slowest first full pass, today's engine: {worst:.1f} ms of CPU — {verdict} the "
            f"target of {TARGET_FULL_PASS_MS:.0f} ms")
    if result["ratio_to_baseline"] is not None:
        line += f"; {result['ratio_to_baseline']:.3f}× the baseline's"
    console.print(line)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="of duels at --rate")
    parser.add_argument("--rate", type=int, default=6_000,
                        help="the server's flat-out actions per second (default 6,000)")
    parser.add_argument("--players", type=int, default=1_000, help="live games at once")
    parser.add_argument("--game-actions", type=int, default=1_000,
                        help="mean length of a game that is neither won nor stuck")
    parser.add_argument("--settled", type=int, default=1_000,
                        help="finished games kept (500 settled matches of 2)")
    parser.add_argument("--runs", type=int, default=1, help="alternating runs of each engine")
    parser.add_argument("--output", type=Path, default=RESULTS)
    baseline.add_arguments(parser)
    args = parser.parse_args(argv)
    if args.worker:
        gc.collect()
        gc.freeze()  # what start-up made, as `spider serve` does: never walked again
        gc.set_threshold(*SERVER_THRESHOLDS)
        actions = round(args.seconds * args.rate)
        json.dump(duels(actions, args.players, args.game_actions, args.settled), sys.stdout)
        return {}
    work = ["--seconds", str(args.seconds), "--rate", str(args.rate),
            "--players", str(args.players),
            "--game-actions", str(args.game_actions), "--settled", str(args.settled)]
    runs = []
    with baseline.engines(args) as (engines, compared):
        for number in range(1, args.runs + 1):
            run: dict[str, Any] = {"run": number}
            for name, tree in engines.items():
                run[name] = run_worker(tree, "bench.engine_gc", work)
            runs.append(run)
    worst = max(run["new"]["full_pass_cpu_ms"] for run in runs)
    worst_old = max((run["baseline"]["full_pass_cpu_ms"] for run in runs if "baseline" in run),
                    default=None)
    result = {
        "benchmark": "engine_gc", "python": sys.version.split()[0],
        "machine": platform.machine(), "seconds": args.seconds, "rate": args.rate,
        "players": args.players,
        "game_actions": args.game_actions, "settled": args.settled,
        "thresholds": list(SERVER_THRESHOLDS), "baseline": compared,
        "load_average": list(os.getloadavg()), "runs": runs,
        "target_full_pass_ms": TARGET_FULL_PASS_MS, "worst_full_pass_cpu_ms": worst,
        "meets_target": worst <= TARGET_FULL_PASS_MS,
        "ratio_to_baseline": ratio(worst, worst_old),
    }
    print_table(result)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
