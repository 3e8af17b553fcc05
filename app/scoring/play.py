"""A scored game: a starting position, the actions applied so far, and the score.

This is the fold the server, the CLI and the tests share: each step validates with the
engine, then scores the events.
"""

from __future__ import annotations

from app.engine.actions import Action
from app.engine.events import Event
from app.engine.game import apply
from app.engine.state import GameState
from app.engine.values import Value
from app.scoring.schemes import Score, next_score, start_score


class ScoredGame(Value):
    state: GameState
    score: Score

    @classmethod
    def start(cls, state: GameState) -> ScoredGame:
        return cls(state, start_score(state.rules.scoring, state))

    @classmethod
    def at(cls, state: GameState) -> ScoredGame:
        """The game scored at a position reached by any path: for the schemes that are
        functions of the position (``windows``, the solo and daily presets' scheme, and
        ``aisleriot``). ``duel`` scores a game's history: fold it from the start."""
        scheme = state.rules.scoring
        if scheme == "duel" and state.actions:
            raise ValueError("the duel scheme scores a game's history, not a position: "
                             "fold the game from its start")
        return cls(state, start_score(scheme, state))

    def play(self, action: Action) -> tuple[ScoredGame, tuple[Event, ...]]:
        """Apply a legal action; an illegal one raises and leaves this game as it was."""
        state, events = apply(self.state, action)
        return ScoredGame(state, next_score(self.score, state, events)), events

    @property
    def points(self) -> int:
        return self.score.points
