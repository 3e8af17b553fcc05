"""Who won a duel, written once for every store: a player who did not start loses to
one who did (the no-show rule); then the higher ``duel`` score, then the shorter playing
time in whole milliseconds; equal in all is a draw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.wire.duel import GameStatus as _GameStatus


@dataclass(frozen=True)
class PlayerOutcome:
    player_id: int
    score: int
    elapsed_s: float
    reason: str

    @property
    def elapsed_ms(self) -> int:
        # Whole milliseconds: what the stores keep (``time_used_ms``), so the in-memory
        # and the SQL store rank the same two games the same way.
        return round(self.elapsed_s * 1000)


NO_SHOW: Final = "did_not_start"
"""The end of a game never opened by its start deadline."""
NOT_STARTED: Final = "not_started"
"""A game not opened yet (its clock has not started), said so over REST and WebSocket."""

GameStatus = _GameStatus  # the frames' (app/wire/duel.py), said over REST too
"""Every word a duel game's status is said with, in REST answers and protocol frames."""


def _rank(outcome: PlayerOutcome) -> tuple[bool, int, int]:
    # A player who started and lost points (a move costs one) still beats a no-show.
    return (outcome.reason == NO_SHOW, -outcome.score, outcome.elapsed_ms)


def decide_winner(outcomes: list[PlayerOutcome]) -> int | None:
    """The winner's player id, or None for a draw (or no game at all)."""
    ranked = sorted(outcomes, key=_rank)
    if len(ranked) < 2:
        return ranked[0].player_id if ranked else None
    if _rank(ranked[0]) == _rank(ranked[1]):
        return None
    return ranked[0].player_id


def match_score(winner_id: int | None, player_id: int) -> float:
    """The player's result as a rating period counts it: 1 won, 0.5 draw, 0 lost."""
    if winner_id is None:
        return 0.5
    return 1.0 if winner_id == player_id else 0.0
