"""A solo or daily game's frames (docs/solo-and-daily.md, section 5).

Views come from ``app.engine.view.player_view`` only, as in duels; a daily's number and
every game's generator deal only once the game is over (``solo_over``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from app.wire.base import Frame, Part, SoloFrame, described
from app.wire.events import Event
from app.wire.game import GameRules, GameView, PlayedAction

SoloStatus = Literal["playing", "won", "abandoned", "expired"]


class SoloGameOptions(Part, frozen=True):
    suits: Literal[1, 2, 4]
    solvable_only: bool
    relaxed: bool


class PointsBreakdown(Part, frozen=True):
    base: int
    speed: int
    economy: int
    multiplier: str
    rescue_cost: int
    floor: int
    total: int


class SoloSnapshot(SoloFrame, tag="solo_snapshot", frozen=True):
    """The whole visible state of my solo or daily game."""

    kind: Literal["solo", "daily"]
    number: Annotated[int | None, described("None for a daily game in progress.")]
    daily_date: str | None
    options: SoloGameOptions
    rules: GameRules
    difficulty: Literal["easy", "medium", "hard"] | None
    view: GameView
    score: int
    seq: Annotated[int, described("Number of actions logged; the next action uses seq + 1.")]
    status: SoloStatus
    elapsed_ms: int
    hints: int
    rescues: int
    auto_complete: Annotated[bool, described("Whether the Auto-complete button is offered.")]
    points: int | None


class SoloAck(SoloFrame, tag="solo_ack", frozen=True):
    """My action applied, and where my game stands."""

    seq: int
    view: GameView
    score: int
    delta: int
    events: list[Event]
    status: SoloStatus
    elapsed_ms: int
    auto_complete: Annotated[bool, described("Whether the Auto-complete button is offered.")]
    duplicate: bool = False


class SoloReject(SoloFrame, tag="solo_reject", frozen=True):
    """Why an action (numbered ``seq``) was refused; it changed nothing. With where the
    game stands, to resume from."""

    seq: int
    code: str
    message: str
    view: GameView
    score: int
    next_seq: int
    status: SoloStatus


class SoloStep(Part, frozen=True):
    """One action the server played for the player (rescue or auto-complete)."""

    seq: int
    action: PlayedAction
    by: Annotated[Literal["rescue", "auto_complete", "player"], described(
        "player: an undo of undo_to_winnable, logged as the player's own.")]
    events: list[Event]


class SoloAssist(SoloFrame, tag="solo_assist", frozen=True):
    """The answer to a rescue or a served auto-complete: the steps played, then the truth."""

    kind: Literal["rescue", "auto_complete", "undo_to_winnable"]
    verdict: Annotated[
        Literal["way_out", "no_way_out", "unknown", "ready", "cancelled"],
        described("cancelled: the player's solo_cancel stopped the search (nothing "
                  "played). For undo_to_winnable, way_out: the undos were played.")]
    message: str
    steps: list[SoloStep]
    view: GameView
    score: int
    seq: Annotated[int, described("Number of actions logged; the next action uses seq + 1.")]
    status: SoloStatus
    elapsed_ms: int
    rescues: int
    points_cost: int
    auto_complete: Annotated[bool, described("Whether the Auto-complete button is offered.")]
    duplicate: bool = False


class SoloHint(Frame, tag="solo_hint", frozen=True):
    """The answer to ``solo_hint`` (this connection only, not numbered)."""

    game_id: int
    action: Annotated[PlayedAction | None, described("None when no action helps.")]
    reason: Annotated[str, described("Why, in a few words (no card names).")]
    verdict: Annotated[Literal["line", "no_win", "cancelled"], described(
        "line: action is the next of a winning line that leads to no position seen "
        "before in this game; no_win: no win found from here (undos, undo_to_move: how "
        "far back the game is winnable, when found); cancelled: stopped by solo_cancel.")]
    undos: int | None = None
    undo_to_move: Annotated[int | None, described(
        "The place in the undo stack of the last winnable position (actions still "
        "standing there).")] = None


class SoloAssistCounts(Part, frozen=True):
    hints: int
    rescues: int
    undo_to_winnable: int
    auto_complete: int


class SoloOver(SoloFrame, tag="solo_over", frozen=True):
    """A solo or daily game ended: won, abandoned or expired; number and deal revealed.
    ``assisted``: a hint, rescue or undo-to-winnable was used (docs/points.md, Fair play)."""

    status: Literal["won", "abandoned", "expired"]
    elapsed_ms: int | None
    actions: int
    points: int | None
    points_breakdown: PointsBreakdown | None
    number: int
    source_deal: int
    daily_date: str | None
    assisted: bool
    assists: SoloAssistCounts
