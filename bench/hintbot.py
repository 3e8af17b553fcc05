"""Hint-bot benchmark (issue 24): a bot that plays solo games only by the guided hints.

    python -m bench.hintbot                  # 200 random solvable 2-suit deals, 50 4-suit
    python -m bench.hintbot --quick          # 20 and 5
    python -m bench.hintbot --two 40 --four 10 --careless 0.25

The bot plays each deal through the service layer in-process (``SoloPlay`` on a fresh
migrated SQLite file, the solver in one child process as in the server): it asks for a
hint and plays it; when the hint says "no win from here" it asks for a rescue (timed; a
rescue that finds a way out plays its actions, as a player's would) and then for
"undo to the last winnable position" (when neither finds anything in time, it asks
again, up to 3 times, then gives the deal up). With ``--careless P`` it plays a random legal move
instead of the hint with probability P during its first 60 actions, as a new player
would, which is what leads to positions with no win. It reports, per suit count: wins,
positions repeated by following a hint (target 0), hint latency p50/p95/max, and the p95
of undo-to-winnable and rescue. Prints a table and writes ``bench/results/hintbot.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.engine import make_engine, make_session_factory
from app.db.models import Player
from app.engine.actions import Action, Undo, action_from_json
from app.engine.game import legal_moves, push
from app.engine.state import GameState
from app.rewards.guide import position_key
from app.rewards.solo import SoloOptions, solo_start
from app.runtime import solver_worker
from app.services.solo_play import SoloPlay
from app.wire.solo import SoloAck
from bench.database import sqlite_url, upgrade

RESULTS = Path(__file__).resolve().parent / "results" / "hintbot.json"
MAX_ACTIONS = 1_500
CARELESS_ACTIONS = 60
RETRIES = 3
"""Hints asked again when neither the hint nor undo-to-winnable found anything in time."""


@dataclass
class Tally:
    suits: int
    deals: int = 0
    won: int = 0
    actions: list[int] = field(default_factory=list)
    repeated: int = 0
    hint_ms: list[float] = field(default_factory=list)
    undo_ms: list[float] = field(default_factory=list)
    rescue_ms: list[float] = field(default_factory=list)
    no_win: int = 0
    lost: list[int] = field(default_factory=list)
    why: dict[int, str] = field(default_factory=dict)
    retries: int = 0

    def row(self) -> dict[str, Any]:
        return {
            "suits": self.suits, "deals": self.deals, "won": self.won,
            "win_rate": round(self.won / self.deals, 4) if self.deals else None,
            "repeated_positions": self.repeated, "hints": len(self.hint_ms),
            "median_actions": statistics.median(self.actions) if self.actions else None,
            "hint_p50_ms": pct(self.hint_ms, 50), "hint_p95_ms": pct(self.hint_ms, 95),
            "hint_max_ms": round(max(self.hint_ms), 1) if self.hint_ms else None,
            "no_win_hints": self.no_win,
            "undo_to_winnable": len(self.undo_ms), "undo_p95_ms": pct(self.undo_ms, 95),
            "undo_max_ms": round(max(self.undo_ms), 1) if self.undo_ms else None,
            "rescues": len(self.rescue_ms), "rescue_p95_ms": pct(self.rescue_ms, 95),
            "rescue_max_ms": round(max(self.rescue_ms), 1) if self.rescue_ms else None,
            "retries": self.retries, "lost_numbers": self.lost, "lost_why": self.why,
        }


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))], 1)


async def timed(tally: list[float], call: Any) -> Any:
    started = time.perf_counter()
    answer = await call
    tally.append((time.perf_counter() - started) * 1000)
    return msgspec.to_builtins(answer)  # as a client reads it


async def play_deal(play: SoloPlay, player: int, number: int, suits: int, tally: Tally,
                    rng: random.Random, careless: float) -> None:
    # As the server's route: dealt in a solver process (whose cache then knows the
    # solvable deal's own win, which the first hint plays from).
    start = await solver_worker.off_loop(solo_start, number, SoloOptions(suits))
    game_id = (await play.create(player_id=player, start=start)).game.id
    await play.open(player_id=player, game_id=game_id)
    state: GameState = start.state
    seen = {position_key(state)}
    seq = 0
    tally.deals += 1
    why = f"{MAX_ACTIONS} actions"
    retries = 0
    while not state.won and seq < MAX_ACTIONS:
        action: Action
        if seq < CARELESS_ACTIONS and rng.random() < careless:
            action = rng.choice(legal_moves(state) or [Undo()])
        else:
            hint = await timed(tally.hint_ms, play.hint(player_id=player, game_id=game_id))
            if hint["verdict"] == "no_win":
                tally.no_win += 1
                frames = await timed(tally.rescue_ms,
                                     play.rescue(player_id=player, game_id=game_id,
                                                 seq=seq + 1))
                if frames[0].get("steps"):
                    state, seq = follow(state, frames[0], seen)
                    continue
                frames = await timed(tally.undo_ms, play.undo_to_winnable(
                    player_id=player, game_id=game_id, seq=seq + 1))
                if frames[0].get("verdict") != "way_out":
                    # Nothing found in time (a loaded machine): ask again, as a player
                    # would; the solver's caches make the next answer quicker.
                    why = f"undo to winnable at {seq}: {frames[0].get('message')}"
                    retries += 1
                    tally.retries += 1
                    if retries > RETRIES:
                        break
                    continue
                state, seq = follow(state, frames[0], seen)
                continue
            if hint["action"] is None:
                why = f"hint at {seq}: {hint['verdict']}, {hint['reason']}"
                break
            action = action_from_json(hint["action"])
            if position_key(push(state, action)) in seen:
                tally.repeated += 1
        seq += 1
        frames = await play.act(player_id=player, game_id=game_id, seq=seq,
                                action=action.to_json())
        if not isinstance(frames[0], SoloAck):
            raise RuntimeError(f"deal {number}: {frames[0]}")
        state = push(state, action)
        seen.add(position_key(state))
    if state.won:
        tally.won += 1
        tally.actions.append(state.actions)
    else:
        tally.lost.append(number)
        tally.why[number] = why


async def add_player(sessions: async_sessionmaker[AsyncSession], name: str) -> int:
    async with sessions() as session:
        player = Player(name=name, name_key=name.lower())
        session.add(player)
        await session.commit()
        return player.id


def follow(state: GameState, answer: dict[str, Any], seen: set[bytes]
           ) -> tuple[GameState, int]:
    for step in answer["steps"]:
        state = push(state, action_from_json(step["action"]))
        seen.add(position_key(state))
    return state, answer["seq"]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    load = os.getloadavg()  # the latencies are wall-clock: say how busy the machine was
    workdir = Path(tempfile.mkdtemp(prefix="hintbot-"))
    url = sqlite_url(workdir / "bench.db")
    upgrade(url)
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    if args.processes:
        solver_worker.install(args.processes)
        # Spawn the child and import the solver there before timing anything (a server's
        # first solver call pays that once; here it would land on the first hint).
        await asyncio.gather(*(solver_worker.off_loop(position_key, solo_start(
            1, SoloOptions(1)).state) for _ in range(args.processes)))
    play = SoloPlay(sessions=sessions, rescue_seconds=args.seconds,
                    auto_complete_seconds=2.0)
    player = await add_player(sessions, "HintBot")
    rng = random.Random(args.seed)
    rows = []
    for suits, count in ((2, args.two), (4, args.four)):
        tally = Tally(suits)
        for index in range(count):
            number = rng.randint(1, 999_999)
            await play_deal(play, player, number, suits, tally, rng, args.careless)
            if args.verbose:
                print(f"  {suits} suits #{index + 1} deal {number}: won {tally.won}/"
                      f"{tally.deals}", flush=True)
        rows.append(tally.row())
    await engine.dispose()
    solver_worker.shutdown()
    return {"machine": platform.platform(), "python": platform.python_version(),
            "load_before": load, "load_after": os.getloadavg(),
            "seed": args.seed, "careless": args.careless, "seconds": args.seconds,
            "solver_processes": args.processes, "rows": rows}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--two", type=int, default=200, help="2-suit deals")
    parser.add_argument("--four", type=int, default=50, help="4-suit deals")
    parser.add_argument("--quick", action="store_true", help="20 and 5 deals")
    parser.add_argument("--careless", type=float, default=0.0,
                        help="chance of a random move in the first 60 actions")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=2.5,
                        help="the search budget (setting solo_rescue_seconds)")
    parser.add_argument("--processes", type=int, default=1,
                        help="solver child processes (0: threads)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.two, args.four = 20, 5
    report = asyncio.run(run(args))
    print(f"{'suits':>5} {'deals':>5} {'won':>4} {'win %':>6} {'repeats':>7} {'hints':>6} "
          f"{'p50 ms':>7} {'p95 ms':>7} {'no-win':>6} {'undo p95':>8} {'rescue p95':>10}")
    for row in report["rows"]:
        rate = "—" if row["win_rate"] is None else f"{100 * row['win_rate']:.1f}"
        print(f"{row['suits']:>5} {row['deals']:>5} {row['won']:>4} {rate:>6} "
              f"{row['repeated_positions']:>7} {row['hints']:>6} {row['hint_p50_ms']!s:>7} "
              f"{row['hint_p95_ms']!s:>7} {row['no_win_hints']:>6} {row['undo_p95_ms']!s:>8} "
              f"{row['rescue_p95_ms']!s:>10}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
