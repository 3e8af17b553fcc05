"""CPU and latency of a solo action through the live service, on SQLite.

    python -m bench.solo_play [--games 12] [--rounds 3]

``SoloPlay`` in this process (as the WebSocket calls it) on a migrated SQLite file of
its own, in WAL mode as the server runs it: each game is a solvable 1-suit deal played
to its win along its verified line, one ``act`` at a time, so every action is judged,
logged, committed and answered (the win ends the game through the settled event:
badges, points). Reports, per action, the
process CPU (the service, SQLAlchemy, aiosqlite's thread, and the auto-complete's solver:
once the stock is empty and every card face up, each action asks it whether to offer
the auto-complete), the same for the actions after which no such solve runs (the
pipeline itself), and the wall time p50 / p95; the median of ``--rounds`` rounds;
writes ``bench/results/solo_play.json``.

The number to compare is the CPU per action, between two trees on the same machine (run
one after the other): the wall time is mostly SQLite's commit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.db.engine import make_engine, make_session_factory
from app.db.models import Player
from app.db.sqlite_wal import use_wal
from app.engine.game import push
from app.engine.solver.solvable import solvable_deal
from app.rewards.assist import auto_complete_available
from app.rewards.solo import SoloOptions, solo_start
from app.services.solo_play import SoloPlay
from app.wire.solo import SoloAck
from bench.database import sqlite_url, upgrade
from bench.stats import percentile, table

RESULTS = Path(__file__).resolve().parent / "results" / "solo_play.json"


async def one_round(games: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        url = sqlite_url(Path(folder) / "solo.db")
        upgrade(url)
        engine = make_engine(url)
        use_wal(engine)  # as the server runs SQLite (app/wiring.py)
        sessions = make_session_factory(engine)
        play = SoloPlay(sessions=sessions)  # the server's default solver budgets
        async with sessions() as session:
            player = Player(name="bench", name_key="bench")
            session.add(player)
            await session.commit()
        lines = [(solo_start(number, SoloOptions(1)), solvable_deal(number, 1).solution)
                 for number in range(1, games + 1)]
        waits: list[float] = []
        plain_cpu: list[float] = []  # actions after which no auto-complete is solved
        cpu = 0.0
        for start, line in lines:
            created = await play.create(player_id=player.id, start=start)
            game_id = created.game.id
            await play.open(player_id=player.id, game_id=game_id)
            state = start.state
            cpu_before = time.process_time()
            for seq, action in enumerate(line, start=1):
                began, began_cpu = time.perf_counter(), time.process_time()
                answer = await play.act(player_id=player.id, game_id=game_id, seq=seq,
                                        action=action.to_json())
                waits.append(time.perf_counter() - began)
                state = push(state, action)
                if not auto_complete_available(state):
                    plain_cpu.append(time.process_time() - began_cpu)
                assert isinstance(answer[0], SoloAck), answer[0]
            cpu += time.process_time() - cpu_before
            assert answer[0].status == "won", answer[0]
        await engine.dispose()
    waits.sort()
    return {"actions": len(waits), "cpu_us_per_action": cpu / len(waits) * 1e6,
            "plain_actions": len(plain_cpu),
            "plain_cpu_us_per_action": sum(plain_cpu) / len(plain_cpu) * 1e6,
            "p50_ms": percentile(waits, 0.5) * 1e3, "p95_ms": percentile(waits, 0.95) * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rounds = [asyncio.run(one_round(args.games)) for _ in range(args.rounds)]
    median = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    rows = [("round", "actions", "CPU µs / action", "without a solve", "p50 ms", "p95 ms")]
    for index, found in enumerate([*rounds, median], start=1):
        rows.append(("median" if index > len(rounds) else str(index),
                     str(int(found["actions"])), f"{found['cpu_us_per_action']:.0f}",
                     f"{found['plain_cpu_us_per_action']:.0f} ({int(found['plain_actions'])})",
                     f"{found['p50_ms']:.2f}", f"{found['p95_ms']:.2f}"))
    print(table(rows))
    report: dict[str, Any] = {"when": datetime.now(UTC).isoformat(), "games": args.games,
                              "rounds": rounds, "median": median}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written {RESULTS.relative_to(RESULTS.parents[2])}")


if __name__ == "__main__":
    main()
