"""Request and response bodies of the solo, daily, leaderboard and badge routes."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.api.schemas import RequestBody, Suits
from app.engine.deal_numbers import DEAL_NUMBER_MIN, PLAYABLE_NUMBER_MAX
from app.services.daily import BoardEntry, StreakEntry

SoloKind = Literal["solo", "daily"]
SoloStatus = Literal["playing", "won", "abandoned", "expired"]
Difficulty = Literal["easy", "medium", "hard"]


class SoloOptionsIn(RequestBody):
    suits: Suits
    solvable_only: bool = Field(True, description="deal a number's solvable deal (a win "
                                "on a random deal, with this off, counts ×1.2)")
    relaxed: bool = Field(False, description="deals over empty columns allowed (×0.8)")


class SoloOptionsOut(BaseModel):
    suits: Suits
    solvable_only: bool
    relaxed: bool


class NewSoloGameIn(RequestBody):
    number: int | None = Field(
        None, ge=DEAL_NUMBER_MIN, le=PLAYABLE_NUMBER_MAX,
        description="the deal number: one picked (1–999,999) or a duel's from its \"play "
                    "this deal\" link (up to 2**48 − 1); left out = a random one, 1–999,999")
    options: SoloOptionsIn


class PointsBreakdownOut(BaseModel):
    base: int
    speed: int
    economy: int
    multiplier: str = Field(description='a fraction: "1", "6/5", "4/5", "24/25"')
    rescue_cost: int
    floor: int
    total: int


class AssistCountsOut(BaseModel):
    hints: int = Field(description="hints asked")
    rescues: int = Field(description="rescues that played actions")
    undo_to_winnable: int = Field(description="undos to the last winnable position")
    auto_complete: int = Field(description="1 when the auto-complete finished the game")


class AssistOut(BaseModel):
    kind: Literal["hint", "rescue", "undo_to_winnable", "auto_complete"]
    seq: int = Field(description="the game's action count when it was asked (0: the deal)")
    actions: int = Field(description="actions it played (0: a hint, a rescue without a way "
                         "out)")
    at: datetime


class SoloGameOut(BaseModel):
    id: int
    player_id: int
    player_name: str
    kind: SoloKind
    number: int | None = Field(description="null for a daily game in progress")
    daily_date: date | None
    options: SoloOptionsOut
    rules: dict[str, Any]
    difficulty: Difficulty | None
    status: SoloStatus
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    actions: int
    undos: int
    hints: int
    rescues: int
    auto_completed: bool
    score: int
    elapsed_ms: int | None
    points: int | None
    points_breakdown: PointsBreakdownOut | None
    source_deal: int | None = Field(description="the generator deal; null while in progress")
    assisted: bool = Field(description="a hint, rescue or undo-to-winnable was used: off "
                           "the boards' ranking, no skill badge (docs/points.md, Fair play)")
    assists: AssistCountsOut
    assist_log: list[AssistOut] | None = Field(
        None, description="each assist in order; in a single game's view only")


class NewSoloGameOut(BaseModel):
    game: SoloGameOut
    abandoned_game_id: int | None


class SoloGamesPage(BaseModel):
    items: list[SoloGameOut]
    total: int
    page: int
    page_size: int


class StreakOut(BaseModel):
    current: int
    best: int
    last_won: date | None


class DailyOut(BaseModel):
    day: date
    suits: Suits
    rules: dict[str, Any]
    difficulty: Difficulty | None
    my_game: SoloGameOut | None
    board_visible: bool
    players: int = Field(ge=0, description="players who finished today's daily (won or not)")
    winners: int = Field(ge=0, description="players who won today's daily")
    playing: int = Field(0, ge=0, description="players whose daily is still in progress")
    streak: StreakOut
    duel_table_id: int | None = None
    """My daily-duel table of today (waiting, playing or played), if I took the duel."""
    my_rank: int | None = Field(None, ge=1, description=(
        "my rank on today's board once I won today's daily (as the board ranks), else null"))


class DailyBoardEntryOut(BoardEntry):
    pass  # the service's line of a board, under its API name


class DailyBoardPage(BaseModel):
    items: list[DailyBoardEntryOut]
    total: int
    page: int
    page_size: int


class SoloPointsEntryOut(BaseModel):
    rank: int = Field(description="1 + players with strictly more points")
    player_id: int
    name: str
    points: int
    wins: int


class SoloPointsPage(BaseModel):
    items: list[SoloPointsEntryOut]
    total: int
    page: int
    page_size: int


class StreakEntryOut(StreakEntry):
    pass  # the service's line of the streak board, under its API name


class StreakPage(BaseModel):
    items: list[StreakEntryOut]
    total: int
    page: int
    page_size: int


class BadgeOut(BaseModel):
    code: str
    title: str
    description: str


class BadgeGameOut(BaseModel):
    kind: Literal["solo", "daily", "duel"]
    id: int


class HeldBadgeOut(BadgeOut):
    earned_at: datetime
    game: BadgeGameOut
