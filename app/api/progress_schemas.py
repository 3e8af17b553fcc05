"""Answers of a player's past: the merged game list, the statistics, and replays."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.api.schemas import PageMeta, Suits

Mode = Literal["duel", "solo", "daily"]


class PlayAgainOut(BaseModel):
    """``POST /api/solo/games`` with this number and these options deals the cards again."""

    number: int
    suits: Suits
    solvable_only: bool
    relaxed: bool = False


class PlayedGameOut(BaseModel):
    kind: Mode
    game_id: int = Field(description="a duel's game (GET /api/replays/duel/{id}), or a solo "
                         "or daily game (GET /api/replays/solo/{id})")
    match_id: int | None = Field(description="a duel's match")
    ended_at: datetime | None
    suits: Suits
    result: Literal["won", "lost", "draw", "abandoned", "expired"]
    status: str = Field(description="the game's own status (duel: as in the match result)")
    score: int = Field(description="the score shown while playing (the game's scheme)")
    points: int | None = Field(description="a solo or daily win's points")
    time_ms: int | None
    actions: int
    opponent_name: str | None
    opponent_score: int | None
    rated: bool
    rating_after: float | None
    daily_date: str | None
    number: int | None = Field(description="a solo or daily game's deal number")
    play: PlayAgainOut | None = Field(description="the solo game that deals these cards again")
    replay: bool = Field(description="false for a duel game never opened (nothing to replay)")


class PlayedGamesPage(PageMeta):
    items: list[PlayedGameOut]


class ModeStatsOut(BaseModel):
    mode: Mode
    suits: Suits
    played: int
    won: int
    win_rate: float = Field(description="won / played, 0 to 1")
    current_streak: int = Field(description="wins in a row up to the latest game")
    best_streak: int
    best_time_ms: int | None = Field(description="the fastest win")
    best_points: int | None = Field(description="a duel's best score; a solo or daily "
                                    "win's best points")


class RatingPointOut(BaseModel):
    at: datetime | None = Field(description="when the match ended (null: the start)")
    match_id: int | None
    rating: float


class RatingSeriesOut(BaseModel):
    suits: Suits
    points: list[RatingPointOut]


class PlayerStatsOut(BaseModel):
    player_id: int
    player_name: str
    modes: list[ModeStatsOut] = Field(description="only the modes and suit counts played")
    ratings: list[RatingSeriesOut] = Field(description="per suit count with a rated match")


class ReplayStepOut(BaseModel):
    score: int = Field(description="the score after this step (the game's scoring scheme)")
    ms: int | None = Field(description="the clock after this step (time used, in ms)")
    by: Literal["player", "rescue", "auto_complete"] | None = Field(
        description="who chose the action (null for the start)")


class ReplayOut(BaseModel):
    kind: Mode
    game_id: int
    match_id: int | None
    player_id: int
    player_name: str
    suits: Suits
    scoring: str
    status: str
    ended_at: str | None
    record: dict[str, Any] = Field(description="the rule book's record, with its layout")
    steps: list[ReplayStepOut] = Field(description="the start, then one per move")
    play: PlayAgainOut | None
    daily_date: str | None = None
    number: int | None = None
    options: dict[str, Any] | None = None
