"""A duel's frames: a game's state and steps, its progress, the match's result.

Game content (``view``, ``events``) comes from ``app.engine.view.player_view`` only:
face-down cards and the stock order never appear; ``deal`` only once the match is over.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, UnsetType

from app.wire.base import Frame, MatchFrame, Part, described
from app.wire.events import Event
from app.wire.game import GameRecord, GameRules, GameView, Layout, PlayedAction

GameStatus = Literal["not_started", "playing", "won", "finished", "timed_out", "did_not_start"]
AckStatus = Literal["playing", "won", "finished", "timed_out"]
EndReason = Literal["won", "finished", "timed_out", "did_not_start"]
Role = Literal["player", "spectator"]


class Progress(Part, frozen=True):
    """What a player may know of another player's game in progress: no card at all."""

    player_id: int
    score: int
    actions: int
    runs: int
    time_left_ms: Annotated[int | None, described("None until the game is opened.")]
    at_ms: Annotated[int, described(
        "When time_left_ms was read, on the server's clock (ms since the epoch): a client "
        "dates the clock by it rather than by the frame's arrival, as frames held up by a "
        "stalled network arrive together later. Compare it with the least "
        "(arrival - at_ms) seen, which absorbs the clocks' offset and the fastest delivery.")]
    status: GameStatus
    online: bool
    start_deadline: Annotated[str | None, described(
        "While not started: when the game ends as did_not_start (ISO 8601).")] = None


class Snapshot(MatchFrame, tag="snapshot", frozen=True):
    """The whole visible state of one game (mine, or one I watch)."""

    player_id: int
    role: Role
    rules: GameRules
    view: GameView
    score: int
    seq: Annotated[int, described(
        "Number of actions applied; the next action uses seq + 1.")]
    status: GameStatus
    time_limit_ms: int
    time_left_ms: Annotated[int | None, described(
        "None only for a game no clock ends (never a duel's).")]
    opponent: Progress | None


class Ack(MatchFrame, tag="ack", frozen=True):
    """My action applied: the game's step as it was played (a spectator's ``watch`` has
    the same view and events)."""

    seq: int
    view: GameView
    score: int
    delta: int
    events: list[Event]
    status: AckStatus
    time_left_ms: Annotated[int | None, described(
        "None only for a game no clock ends (never a duel's).")]
    duplicate: bool = False


class Reject(MatchFrame, tag="reject", frozen=True):
    """Why an action (numbered ``seq``) was refused; it changed nothing. With where the
    game stands, to resume from."""

    seq: int
    code: str
    message: str
    view: GameView | None
    score: int | None
    next_seq: int | None
    status: str | None


class ProgressEvent(MatchFrame, tag="progress", frozen=True):
    progress: Progress


class WatchEvent(MatchFrame, tag="watch", frozen=True):
    """A live step of a game I spectate: the new view, read-only."""

    player_id: int
    seq: int
    view: GameView
    score: int
    events: list[Event]
    status: str


class GameOver(MatchFrame, tag="game_over", frozen=True):
    player_id: int
    reason: EndReason
    score: int
    elapsed_ms: int


class PlayerResult(Part, frozen=True):
    player_id: int
    name: Annotated[str | None, described("The player's name when the match was made.")]
    score: int
    elapsed_ms: int
    reason: str
    rating_before: float | None = None
    rating_after: float | None = None


class DealPlay(Part, frozen=True):
    """The solo game that deals the same cards again (``POST /api/solo/games`` with this
    number and options). ``number`` is a seed: never sent while a game of the match is
    in progress."""

    number: int
    suits: Literal[1, 2, 4]
    solvable_only: bool


class RevealedDeal(Part, frozen=True):
    """A match's deal, revealed once both games are over: the generator's deal
    (``number``, ``generator``) and/or the starting layout (when the cards are not the
    generator deal of a number: test layouts); a field left out is not known."""

    difficulty: Annotated[str | UnsetType | None, described(
        "The solver's easy, medium or hard; null for a random deal.")] = UNSET
    number: int | UnsetType = UNSET
    generator: Annotated[int | UnsetType | None, described(
        "The deal generator's version.")] = UNSET
    layout: Layout | UnsetType = UNSET
    play: DealPlay | UnsetType = UNSET


class MatchResult(MatchFrame, tag="match_result", frozen=True):
    winner_id: int | None
    results: list[PlayerResult]
    deal: Annotated[RevealedDeal, described("The deal, revealed only now that both are over.")]


class Replay(MatchFrame, tag="replay", frozen=True):
    player_id: int
    record: GameRecord


class Hint(Frame, tag="hint", frozen=True):
    """The answer to ``hint``: computed from what the player sees only. Not numbered."""

    match_id: int
    action: Annotated[PlayedAction | None, described("None when no action helps.")]
    reason: Annotated[str, described("Why, in a few words (no card names).")]
