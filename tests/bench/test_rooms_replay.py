"""The rooms replay's work, on a tiny input: what it replays and hashes, not how fast."""

import asyncio
import hashlib

from bench.rooms_replay import Log, ReplayClock, record, replay


def digest(log: Log, limit: int) -> tuple[int, str]:
    seen = hashlib.sha256()
    acks, _ = asyncio.run(replay(log, limit, ReplayClock(1_800_000_000.0), seen))
    return acks, seen.hexdigest()


def test_recorded_actions_replay_as_acks_and_hash_the_same_every_time() -> None:
    log = asyncio.run(record(1, 30, seed=3))
    assert sorted(log) == ["1", "2"]
    # Consecutive seqs: each action was acknowledged (a refusal leaves its seq to the next).
    assert all([seq for seq, _ in steps] == list(range(1, len(steps) + 1))
               for steps in log.values())
    played = sum(len(steps) for steps in log.values())
    acks, cpu = asyncio.run(replay(log, 10**9))
    assert acks == played and cpu >= 0
    assert asyncio.run(replay(log, 5))[0] == 10  # the first 5 of each player
    assert digest(log, 10**9) == digest(log, 10**9) != digest(log, 5)
