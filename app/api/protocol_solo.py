"""The WebSocket protocol's solo messages (docs/solo-and-daily.md section 5).

Part of protocol version 1: ``app.api.protocol`` puts them in its client and server
unions. Views come from ``app.engine.view.player_view`` only, as in duels.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.api.protocol_base import (
    ActionJson,
    Advice,
    Id,
    Message,
    Numbered,
    Refusal,
    Request,
    Seq,
    SoloFrame,
)


class SoloOpen(Request):
    """Open my solo or daily game: the first open starts its clock; answered by a snapshot."""

    type: Literal["solo_open"]
    game_id: Id


class SoloAct(Request):
    """One action in my solo game (``undo`` included); ``seq`` as in duels."""

    type: Literal["solo_action"]
    game_id: Id
    seq: Seq
    action: ActionJson


class SoloAskHint(Request):
    """A hint for my solo game (counted; no seq, no log entry)."""

    type: Literal["solo_hint"]
    game_id: Id


class SoloRescue(Request):
    """Have the server play the next actions of a win for me; ``seq`` = the next seq."""

    type: Literal["solo_rescue"]
    game_id: Id
    seq: Seq


class SoloAutoComplete(Request):
    """Play the rest of the game, once the server offered it; ``seq`` = the next seq."""

    type: Literal["solo_auto_complete"]
    game_id: Id
    seq: Seq


class SoloUndoToWinnable(Request):
    """Undo back to the most recent position of my game from which a win exists (the
    server's solver finds how far); ``seq`` = the next seq. The undos are mine, logged
    as ordinary undos; answered by ``solo_assist`` of kind ``undo_to_winnable``."""

    type: Literal["solo_undo_to_winnable"]
    game_id: Id
    seq: Seq


class SoloCancel(Request):
    """Stop the search running for my game (hint, rescue, undo-to-winnable): the command
    that waits for it answers at once (verdict ``cancelled``). No answer of its own."""

    type: Literal["solo_cancel"]
    game_id: Id


SoloStatus = Literal["playing", "won", "abandoned", "expired"]


class SoloGameOptions(Message):
    suits: Literal[1, 2, 4]
    solvable_only: bool
    relaxed: bool


class PointsBreakdown(Message):
    base: int
    speed: int
    economy: int
    multiplier: str
    rescue_cost: int
    floor: int
    total: int


class SoloState(SoloFrame):
    """Where my solo or daily game stands: every answer about it says all of this."""

    view: dict[str, Any]
    score: int
    seq: int = Field(description="Number of actions logged; the next action uses seq + 1.")
    status: SoloStatus
    elapsed_ms: int
    auto_complete: bool = Field(description="Whether the Auto-complete button is offered.")


class SoloSnapshot(SoloState):
    """The whole visible state of my solo or daily game."""

    type: Literal["solo_snapshot"] = "solo_snapshot"
    kind: Literal["solo", "daily"]
    number: int | None = Field(description="None for a daily game in progress.")
    daily_date: str | None
    options: SoloGameOptions
    rules: dict[str, Any]
    difficulty: Literal["easy", "medium", "hard"] | None
    hints: int
    rescues: int
    points: int | None


class SoloAck(SoloState):
    type: Literal["solo_ack"] = "solo_ack"
    delta: int
    events: list[dict[str, Any]]
    duplicate: bool = False


class SoloReject(SoloFrame, Refusal):
    type: Literal["solo_reject"] = "solo_reject"
    view: dict[str, Any]
    score: int
    next_seq: int
    status: SoloStatus


class SoloStep(Message):
    """One action the server played for the player (rescue or auto-complete)."""

    seq: int
    action: ActionJson
    by: Literal["rescue", "auto_complete", "player"] = Field(
        description="player: an undo of undo_to_winnable, logged as the player's own.")
    events: list[dict[str, Any]]


class SoloAssist(SoloState):
    """The answer to a rescue or a served auto-complete: the steps played, then the truth."""

    type: Literal["solo_assist"] = "solo_assist"
    kind: Literal["rescue", "auto_complete", "undo_to_winnable"]
    verdict: Literal["way_out", "no_way_out", "unknown", "ready", "cancelled"] = Field(
        description="cancelled: the player's solo_cancel stopped the search (nothing "
                    "played). For undo_to_winnable, way_out: the undos were played.")
    message: str
    steps: list[SoloStep]
    rescues: int
    points_cost: int
    duplicate: bool = False


class SoloHint(Advice):
    """The answer to ``solo_hint`` (this connection only, not numbered)."""

    type: Literal["solo_hint"] = "solo_hint"
    game_id: int
    verdict: Literal["line", "no_win", "cancelled"] = Field(
        description="line: action is the next of a winning line that leads to no position "
                    "seen before in this game; no_win: no win found from here (undos, "
                    "undo_to_move: how far back the game is winnable, when found); "
                    "cancelled: stopped by solo_cancel.")
    undos: int | None = None
    undo_to_move: int | None = Field(
        default=None, description="The place in the undo stack of the last winnable "
                                  "position (actions still standing there).")


class SoloAssistCounts(Message):
    hints: int
    rescues: int
    undo_to_winnable: int
    auto_complete: int


class SoloOver(SoloFrame):
    """A solo or daily game ended: won, abandoned or expired; number and deal revealed.
    ``assisted``: a hint, rescue or undo-to-winnable was used (docs/points.md, Fair play)."""

    type: Literal["solo_over"] = "solo_over"
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


class EarnedBadge(Message):
    code: str
    title: str
    description: str
    earned_at: str


class BadgeGame(Message):
    kind: Literal["solo", "daily", "duel"]
    id: int


class BadgeEarned(Numbered):
    """A badge just earned, after the frame that ended the game that earned it."""

    type: Literal["badge"] = "badge"
    badge: EarnedBadge
    game: BadgeGame
