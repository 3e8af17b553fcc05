"""Who won a duel: the higher ``duel`` score, then the shorter playing time; else a draw."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class PlayerOutcome:
    player_id: int
    score: int
    elapsed_s: float
    reason: str


def decide_winner(outcomes: list[PlayerOutcome]) -> int | None:
    ranked = sorted(outcomes, key=lambda o: (-o.score, o.elapsed_s))
    if len(ranked) < 2:
        return ranked[0].player_id if ranked else None
    first, second = ranked[0], ranked[1]
    if (first.score, first.elapsed_s) == (second.score, second.elapsed_s):
        return None
    return first.player_id
