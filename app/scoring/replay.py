"""Replaying a game record: the verdict on each action, the final position and its score.

The one implementation behind ``spider replay``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine.actions import Action
from app.engine.errors import IllegalAction
from app.engine.layout import state_to_layout
from app.engine.record import Record
from app.scoring.play import ScoredGame


@dataclass(frozen=True, slots=True)
class ActionResult:
    action: Action
    error: IllegalAction | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action.to_json(), "ok": self.ok}
        if self.error is not None:
            out["error"] = self.error.code
            out["message"] = self.error.message
        return out


@dataclass(frozen=True, slots=True)
class ReplayReport:
    results: tuple[ActionResult, ...]
    game: ScoredGame

    @property
    def all_legal(self) -> bool:
        return all(result.ok for result in self.results)

    def to_json(self) -> dict[str, Any]:
        state = self.game.state
        return {
            "results": [result.to_json() for result in self.results],
            "final": state_to_layout(state),
            "status": state.status,
            "scoring": self.game.score.scheme,
            "score": self.game.points,
            "actions": state.actions,
        }


def replay_record(record: Record, *, keep_going: bool = False) -> ReplayReport:
    """Apply the record's actions in order.

    By default the first illegal action is reported and ends the replay; with
    ``keep_going`` it is reported, skipped (changing nothing, costing nothing) and play
    goes on. Winning ends nothing: later actions are judged by the same rules.
    """
    game = ScoredGame.start(record.start)
    results: list[ActionResult] = []
    for action in record.actions:
        try:
            game, _ = game.play(action)
        except IllegalAction as error:
            results.append(ActionResult(action, error))
            if not keep_going:
                break
        else:
            results.append(ActionResult(action))
    return ReplayReport(tuple(results), game)
