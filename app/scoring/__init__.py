"""Scoring schemes (duel, windows, aisleriot) and a scored game built on the engine."""

from app.scoring.schemes import Score, next_score, start_score

__all__ = ["Score", "next_score", "start_score"]
