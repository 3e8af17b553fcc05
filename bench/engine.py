"""Engine throughput: validated actions per second in replay, legal-action generation per second.

Run ``python -m bench.engine`` (``make bench``); ``--quick`` for a short run. Prints a
table of each figure against its target and against the engine of ``--baseline`` (a
fixed earlier commit, run side by side: see bench/baseline.py) and writes
``bench/results/engine.json``. Each engine runs in its own process, one core; the two
alternate ``--rounds`` times and each keeps its best CPU time (CPU, not wall: on a
shared machine wall time also counts the time other processes held the core).

The games are fixed: seeded random play (biased towards in-suit moves, with undos and
deals) over built-in deals of every preset and suit count, generated before any timing
and replayed by both engines as the same action texts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from app.engine.actions import Action, Move, Undo, parse_action
from app.engine.cards import FACE
from app.engine.deal import deal
from app.engine.game import legal_actions, push, replay
from app.engine.layout import state_to_layout
from app.engine.rules import preset
from app.engine.state import GameState
from app.scoring.play import ScoredGame
from bench import baseline
from bench.baseline import ratio, run_worker

RESULTS = Path(__file__).parent / "results" / "engine.json"
TARGETS = {  # issue 14, part 4: per CPU second on this 2-core machine
    "replay": 400_000,
    "replay_scored": 300_000,
    "legal_actions": 200_000,
}
MEASURES = (  # key, label, unit
    ("replay", "replay (validate + apply)", "actions/s"),
    ("replay_scored", "replay + scoring", "actions/s"),
    ("legal_actions", "legal_actions", "positions/s"),
)
KINDS = [(p, s) for p in ("classic", "relaxed", "duel") for s in (1, 2, 4)]


@dataclass(frozen=True)
class Game:
    start: GameState
    actions: tuple[Action, ...]
    states: tuple[GameState, ...]  # every position visited, for legal-action timing


def choose(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """The bots' policy: an undo one time in ten, in-suit builds half the time, else any."""
    in_suit = [a for a in legal if isinstance(a, Move) and _in_suit(state, a)]
    undo = [a for a in legal if isinstance(a, Undo)]
    roll = rng.random()
    if undo and roll < 0.1:
        return undo[0]
    if in_suit and roll < 0.6:
        return rng.choice(in_suit)
    return rng.choice(legal)


def _in_suit(state: GameState, move: Move) -> bool:
    target = state.columns[move.dst].up
    return bool(target) and (state.columns[move.src].up[-move.count] & FACE) + 1 == (
        target[-1] & FACE
    )


def random_actions(number: int, preset_name: str, suits: int, length: int) -> list[str]:
    rng = random.Random(f"{preset_name}/{suits}/{number}")
    state = deal(number, preset(preset_name, suits))
    actions: list[str] = []
    while len(actions) < length:
        legal = legal_actions(state)
        if not legal:
            break
        action = choose(state, legal, rng)
        state = push(state, action)
        actions.append(action.text())
    return actions


def sample_spec(count: int, length: int) -> list[dict[str, Any]]:
    """The games both engines replay: deal, rules and action texts."""
    specs = []
    for index in range(count):
        preset_name, suits = KINDS[index % len(KINDS)]
        number = 1000 + index
        specs.append({"number": number, "preset": preset_name, "suits": suits,
                      "actions": random_actions(number, preset_name, suits, length)})
    return specs


def load_games(specs: list[dict[str, Any]]) -> list[Game]:
    games = []
    for spec in specs:
        start = state = deal(spec["number"], preset(spec["preset"], spec["suits"]))
        actions = tuple(parse_action(text) for text in spec["actions"])
        states = [state]
        for action in actions:
            state = push(state, action)
            states.append(state)
        games.append(Game(start, actions, tuple(states)))
    return games


def best_of(repeats: int, work: Callable[[], int]) -> tuple[int, float, float]:
    """(units of work, best CPU seconds, best wall seconds) over ``repeats`` runs."""
    best_cpu = best_wall = float("inf")
    units = 0
    for _ in range(repeats):
        wall = time.perf_counter()
        cpu = time.process_time()
        units = work()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return units, best_cpu, best_wall


def replay_all(sample: list[Game]) -> int:
    for game in sample:
        replay(game.start, game.actions)
    return sum(len(game.actions) for game in sample)


def replay_scored(sample: list[Game]) -> int:
    for game in sample:
        scored = ScoredGame.start(game.start)
        for action in game.actions:
            scored = scored.play(action)[0]
    return sum(len(game.actions) for game in sample)


def generate_all(sample: list[Game]) -> int:
    count = 0
    for game in sample:
        for state in game.states:
            legal_actions(state)
            count += 1
    return count


def measure(specs: list[dict[str, Any]], repeats: int) -> dict[str, Any]:
    """The worker's part: every figure on the engine this process imported."""
    sample = load_games(specs)
    works = {"replay": replay_all, "replay_scored": replay_scored,
             "legal_actions": generate_all}
    figures = {}
    for key, work in works.items():
        units, cpu, wall = best_of(repeats, lambda work=work: work(sample))
        figures[key] = {"units": units, "cpu_seconds": cpu, "wall_seconds": wall}
    return {"figures": figures, "outcome": outcome(sample)}


def outcome(sample: list[Game]) -> str:
    """A digest of every game's final position and score: both engines must agree on it."""
    digest = hashlib.sha256()
    for game in sample:
        scored = ScoredGame.start(game.start)
        for action in game.actions:
            scored = scored.play(action)[0]
        final = [state_to_layout(scored.state), scored.points, scored.state.actions]
        digest.update(json.dumps(final).encode())
    return digest.hexdigest()


def side_by_side(
    specs: list[dict[str, Any]], repeats: int, rounds: int, engines: dict[str, Path | None]
) -> dict[str, dict[str, Any]]:
    """Best CPU time per figure for each engine over ``rounds`` alternating worker runs."""
    stdin = json.dumps({"specs": specs, "repeats": repeats})
    best: dict[str, dict[str, Any]] = {}
    for _ in range(rounds):
        for name, tree in engines.items():
            result = run_worker(tree, "bench.engine", [], stdin)
            kept = best.setdefault(name, {"outcome": result["outcome"]})
            for key, figure in result["figures"].items():
                if key not in kept or figure["cpu_seconds"] < kept[key]["cpu_seconds"]:
                    kept[key] = figure
    return best


def rows(best: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for key, label, unit in MEASURES:
        new = best["new"][key]
        rate = new["units"] / new["cpu_seconds"]
        old = best.get("baseline", {}).get(key)
        old_rate = old["units"] / old["cpu_seconds"] if old else None
        out.append({
            "key": key, "name": label, "unit": unit, "units": new["units"],
            "cpu_seconds": new["cpu_seconds"], "wall_seconds": new["wall_seconds"],
            "per_second": rate, "per_wall_second": new["units"] / new["wall_seconds"],
            "target": TARGETS[key], "meets_target": rate >= TARGETS[key],
            "baseline_per_second": old_rate, "ratio_to_baseline": ratio(rate, old_rate),
        })
    return out


def print_table(result: dict[str, Any]) -> None:
    table = Table(title=(
        f"engine: {result['games']} games, {result['actions']:,} actions, best of "
        f"{result['repeats']} × {result['rounds']}; baseline: engine of {result['baseline'][:10]}"
    ))
    for column in ("measure", "per CPU s", "target", "new", "baseline", "new/base", "verdict"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    for row in result["rows"]:
        old = row["baseline_per_second"]
        table.add_row(
            row["name"], row["unit"], f"{row['target']:,}", f"{row['per_second']:,.0f}",
            "-" if old is None else f"{old:,.0f}",
            "-" if old is None else f"{row['ratio_to_baseline']:.2f}×",
            "meets" if row["meets_target"] else "MISSES",
        )
    Console(width=max(100, Console().width)).print(table)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter games")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating runs of each engine (default 3)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    baseline.add_arguments(parser)
    args = parser.parse_args(argv)
    if args.worker:  # one engine's figures, for side_by_side: spec on stdin, JSON out
        job = json.load(sys.stdin)
        json.dump(measure(job["specs"], job["repeats"]), sys.stdout)
        return {}
    count, length, repeats = (9, 400, 2) if args.quick else (27, 2000, 5)
    rounds = 1 if args.quick else args.rounds
    specs = sample_spec(count, length)
    with baseline.engines(args) as (engines, compared):
        best = side_by_side(specs, repeats, rounds, engines)
    if "baseline" in best and best["baseline"]["outcome"] != best["new"]["outcome"]:
        raise SystemExit("the two engines disagree on the replayed games")
    result = {
        "benchmark": "engine",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "games": count,
        "actions": sum(len(spec["actions"]) for spec in specs),
        "repeats": repeats,
        "rounds": rounds,
        "baseline": compared,
        "load_average": list(os.getloadavg()),
        "rows": rows(best),
    }
    result["meets_targets"] = all(row["meets_target"] for row in result["rows"])
    print_table(result)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
