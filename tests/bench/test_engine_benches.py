"""The engine benchmarks' work, on tiny inputs: what they count, not how fast (no timing)."""

from bench.engine import load_games, measure, outcome, sample_spec
from bench.engine_gc import duels


def test_the_engine_benchmark_replays_the_games_it_describes() -> None:
    specs = sample_spec(3, 40)
    actions = sum(len(spec["actions"]) for spec in specs)
    result = measure(specs, repeats=1)
    assert result["figures"]["replay"]["units"] == actions
    assert result["figures"]["replay_scored"]["units"] == actions
    assert result["figures"]["legal_actions"]["units"] == actions + len(specs)
    assert result["outcome"] == outcome(load_games(specs))  # the digest both engines compare
    assert outcome(load_games(specs[:2])) != result["outcome"]


def test_the_collector_benchmark_holds_what_it_played() -> None:
    result = duels(600, players=12, mean_length=30, settled=5)
    assert result["actions"] == 600
    assert result["games_finished"] > 0  # lengths of 1-60 actions: games turn over
    assert 0 < result["held_actions"] <= 600
    assert result["held_games"] <= 12 + 5
    assert result["tracked_objects"] > 0 and result["full_pass_cpu_ms"] >= 0
