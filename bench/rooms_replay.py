"""The actions of ``bench.rooms`` recorded once, then replayed without the bots.

``python -m bench.rooms_replay record FILE [--duels N] [--actions M]`` has the bots of
``bench.rooms`` play and writes each player's (seq, action) list to FILE.
``python -m bench.rooms_replay replay FILE [--limit K] [--repeat R]`` replays the first K
actions of each player on a fresh rooms layer (same store, sessions and metrics as
``bench.rooms``) and prints the CPU µs per ack, with no bot choosing in between: what
valgrind counts (``valgrind --tool=callgrind python -m bench.rooms_replay replay FILE
--limit 300``, less a run with ``--limit 0`` for the imports and set-up) is the rooms
layer's alone, and the same from run to run. ``digest FILE`` replays every action and a
finish on a fake clock and prints a hash of every answer and every frame the players'
streams kept for resuming: two trees that print the same hash behave the same.
Writes bench/results/rooms_replay.json (replay).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import time
from pathlib import Path
from typing import Any

from app.api.ws import record_answer
from app.messaging.player_streams import EventStream
from app.runtime.clock import SYSTEM_CLOCK, Clock
from app.wire.duel import Ack
from app.wire.frames import encode
from bench.bot import as_read, choose
from bench.rooms import RESULTS, run_setup

Log = dict[str, list[tuple[int, dict[str, Any]]]]  # player id -> (seq, action) in order


class ReplayClock(Clock):
    """Time that moves only when the replay moves it (``now``); a wait for a later moment
    never ends: a digest must not depend on how fast the machine replays."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    async def sleep_until(self, moment: float) -> None:
        if moment <= self.now:
            await asyncio.sleep(0)
            return
        await asyncio.get_running_loop().create_future()  # cancelled when the rooms close


async def record(duel_count: int, actions: int, seed: int) -> Log:
    duels, hub = run_setup(duel_count)
    rng, log = random.Random(seed), {}

    async def play(player_id: int, bot: random.Random) -> None:
        session = await hub.session(player_id)
        match_id = (player_id + 1) // 2
        answer = await duels.open_game(player_id=player_id, match_id=match_id,
                                       follow=session.follow)
        seq, steps = 0, []
        for _ in range(actions):
            assert answer.view is not None
            action = choose(as_read(answer.view), manual_flip=True, rng=bot)
            if action is None:
                break
            steps.append((seq + 1, action))
            answer = await duels.act(player_id=player_id, match_id=match_id, seq=seq + 1,
                                     action=action)
            seq = answer.seq if isinstance(answer, Ack) else seq
            if answer.status != "playing":
                break
            await asyncio.sleep(0)
        log[str(player_id)] = steps

    await asyncio.gather(*(play(player_id, random.Random(rng.random()))
                           for player_id in range(1, 2 * duel_count + 1)))
    await duels.close()
    await hub.close()
    return log


async def replay(log: Log, limit: int, clock: Clock = SYSTEM_CLOCK,
                 seen: Any = None) -> tuple[int, float]:
    """(acks, CPU seconds) of the first ``limit`` actions of each player; ``seen``, when
    given, hashes every answer, then every kept frame, and advances a fake clock."""
    duels, hub = run_setup(len(log) // 2, clock)
    sessions: dict[int, EventStream] = {}

    async def play(player_id: int, steps: list[tuple[int, dict[str, Any]]]) -> int:
        session = sessions[player_id] = await hub.session(player_id)
        match_id, acks = (player_id + 1) // 2, 0
        await duels.open_game(player_id=player_id, match_id=match_id, follow=session.follow)
        for seq, action in steps[:limit]:
            started = time.perf_counter()
            answer = await duels.act(player_id=player_id, match_id=match_id, seq=seq,
                                     action=action)
            record_answer(answer, op=action["op"], started=started)
            acks += isinstance(answer, Ack)
            if seen is not None and isinstance(clock, ReplayClock):
                seen.update(b"%d:" % player_id + encode(answer))
                clock.now += 0.01  # 160 s over 16,000 actions: no game runs out of time
            await asyncio.sleep(0)
        if seen is not None and limit >= len(steps):
            seen.update(encode(await duels.finish(player_id=player_id, match_id=match_id,
                                                  seq=len(steps) + 1)))
        return acks

    cpu = time.process_time()
    counts = await asyncio.gather(*(play(int(p), steps) for p, steps in log.items()))
    cpu = time.process_time() - cpu
    for _ in range(3):  # the last channel messages are handed over
        await asyncio.sleep(0)
    if seen is not None:
        for player_id in sorted(sessions):
            session = sessions[player_id]
            for frame in session.missed_since(session.stream, 0) or ():
                seen.update(b"%d:" % player_id + encode(frame))
    await duels.close()
    await hub.close()
    return sum(counts), cpu


def _read(path: str) -> Log:
    return {player: [(seq, action) for seq, action in steps]
            for player, steps in json.loads(Path(path).read_text()).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("record", "replay", "digest"))
    parser.add_argument("file")
    parser.add_argument("--duels", type=int, default=10)
    parser.add_argument("--actions", type=int, default=800)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--limit", type=int, default=10**9)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if args.command == "record":
        log = asyncio.run(record(args.duels, args.actions, args.seed))
        Path(args.file).write_text(json.dumps(log))
        print(sum(len(steps) for steps in log.values()), "actions recorded")
        return
    log = _read(args.file)
    if args.command == "digest":
        seen = hashlib.sha256()
        acks, _ = asyncio.run(replay(log, args.limit, ReplayClock(1_800_000_000.0), seen))
        print(f"{acks} acks, digest {seen.hexdigest()}")
        return
    runs = []
    for _ in range(args.repeat):
        acks, cpu = asyncio.run(replay(log, args.limit))
        runs.append(round(cpu * 1e6 / max(1, acks), 1))
        print(f"{acks} acks: {runs[-1]} µs of CPU per ack (replayed, no bots)")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "rooms_replay.json").write_text(json.dumps(
        {"acks": acks, "cpu_us_per_ack": runs}, indent=2) + "\n")


if __name__ == "__main__":
    main()
