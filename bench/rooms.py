"""CPU time of the rooms layer per action, without a database or a socket.

``python -m bench.rooms [--duels N] [--actions M]`` seats N duels (4 suits, duel rules) on
a store that keeps nothing, follows each match channel with a real player session (as a
connected player does), and has bots play M actions per game, one at a time, picking
each move from the previous answer's view. It reports process CPU microseconds per
acknowledged action, less the bots' own choosing: the engine, the scoring, the
projections, the fan-out and the metrics, which is what the live server spends on an
action besides the database write and the WebSocket frame. Writes bench/results/rooms.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.api.ws import record_answer as record
from app.messaging.pubsub import MemoryPubSub
from app.messaging.stream_hub import StreamHub
from app.rooms.duel import DuelService
from app.rooms.store import MemoryStore, StoredGame, StoredMatch, Totals
from app.runtime.clock import SYSTEM_CLOCK, Clock
from app.wire.duel import Ack
from bench.bot import as_read, choose

RESULTS = Path(__file__).resolve().parent / "results"
RULES = {"preset": "duel", "suits": 4}


class NullLogStore(MemoryStore):
    """Accepts every action and keeps none: the benchmark times the rooms layer only."""

    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], at: float, progress: Totals,
        *, then: Callable[[], None] | None = None,
    ) -> None:
        if then is not None:
            then()


async def _play(duels: DuelService, hub: StreamHub, player_id: int, match_id: int,
                actions: int, rng: random.Random, bots: list[float]) -> int:
    session = await hub.session(player_id)
    snapshot = await duels.open_game(player_id=player_id, match_id=match_id,
                                     follow=session.follow)
    view, seq, acks = snapshot.view, 0, 0
    for _ in range(actions):
        thinking = time.process_time()
        action = choose(as_read(view), manual_flip=True, rng=rng)
        bots[0] += time.process_time() - thinking
        if action is None:
            break
        started = time.perf_counter()
        answer = await duels.act(player_id=player_id, match_id=match_id, seq=seq + 1,
                                 action=action)
        record(answer, op=action["op"], started=started)
        if isinstance(answer, Ack):
            seq, acks = answer.seq, acks + 1
        assert answer.view is not None  # a duel's refusal says where the game stands
        view = answer.view
        if answer.status != "playing":
            break
        await asyncio.sleep(0)  # let the sessions take their channel messages, as on the server
    return acks


def run_setup(duel_count: int, clock: Clock = SYSTEM_CLOCK) -> tuple[DuelService, StreamHub]:
    """The rooms layer with ``duel_count`` matches seated (players 2i+1 and 2i+2 in
    match i+1), on a store that keeps no action."""
    store = NullLogStore()
    for index in range(duel_count):
        a, b = 2 * index + 1, 2 * index + 2
        store.add_match(StoredMatch(
            match_id=index + 1, rules=RULES, time_limit_s=3600.0,
            games=[StoredGame(100 + a, a), StoredGame(100 + b, b)],
            deal={"number": 1000 + index},
        ))
    pubsub = MemoryPubSub()
    return DuelService(store=store, pubsub=pubsub, clock=clock), StreamHub(pubsub, clock)


async def run(duel_count: int, actions: int, seed: int) -> dict[str, Any]:
    duels, hub = run_setup(duel_count)
    rng = random.Random(seed)
    bots = [0.0]  # CPU the bots spend choosing: the clients', not the server's
    started_cpu, started_wall = time.process_time(), time.perf_counter()
    counts = await asyncio.gather(*(
        _play(duels, hub, player_id, (player_id + 1) // 2, actions,
              random.Random(rng.random()), bots)
        for player_id in range(1, 2 * duel_count + 1)
    ))
    cpu = time.process_time() - started_cpu - bots[0]
    wall = time.perf_counter() - started_wall
    await duels.close()
    await hub.close()
    acks = sum(counts)
    return {"duels": duel_count, "acks": acks, "cpu_s": round(cpu, 3),
            "bot_cpu_s": round(bots[0], 3), "wall_s": round(wall, 3),
            "cpu_us_per_ack": round(cpu * 1e6 / max(1, acks), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duels", type=int, default=10)
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    result = asyncio.run(run(args.duels, args.actions, args.seed))
    print(f"{result['acks']} acks in {result['cpu_s']} s CPU: "
          f"{result['cpu_us_per_ack']} µs per ack (rooms layer, no database, no socket)")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "rooms.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
