"""Request and response bodies of the REST API (pydantic), and converters from services."""

from collections.abc import Callable, Sequence
from datetime import date, datetime
from enum import IntEnum
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from app.db.models import DuelTable
from app.rooms.winner import GameStatus
from app.services.friends import Contact, PendingRequest
from app.services.invites import InviteView
from app.services.paging import Page
from app.services.players import NAME_MAX, NAME_MIN, PlayerInfo, RatingInfo
from app.services.ratings import LeaderboardEntry
from app.services.results import GameResult, HistoryEntry, MatchReport
from app.services.tables import TIME_LIMIT_MAX, TIME_LIMIT_MIN, TableView

GAME_STATUS_HELP = ("not_started (not opened yet), playing, won, finished (ended early), "
                    "timed_out, or did_not_start (never opened in time: the no-show rule); "
                    "the same words as the WebSocket's")

Suits = Literal[1, 2, 4]


def _columns(row: object, *names: str) -> dict[str, Any]:
    """The ``names`` attributes of ``row``: what an answer repeats from a row as it is."""
    return {name: getattr(row, name) for name in names}


class SuitCount(IntEnum):
    """1, 2 or 4 in a query string (a Literal of ints does not take "1" from a URL)."""

    ONE = 1
    TWO = 2
    FOUR = 4


NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*$"
Level = Literal["any", "beginner", "intermediate", "advanced", "expert"]
DifficultyChoice = Literal["any", "easy", "medium", "hard"]


class RequestBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewPlayerIn(RequestBody):
    name: str = Field(min_length=NAME_MIN, max_length=NAME_MAX, pattern=NAME_PATTERN,
                      description="3–20 letters A-Z, digits, '_' or '-'; starts with a letter")


class NameIn(RequestBody):
    name: str = Field(min_length=1, max_length=64, pattern=NAME_PATTERN,
                      description="a player's display name")


class TableIn(RequestBody):
    preset: Literal["duel", "classic"] = "duel"
    suits: Suits = 1
    time_limit_seconds: int = Field(900, ge=TIME_LIMIT_MIN, le=TIME_LIMIT_MAX)
    level: Level = "any"
    public: bool = True
    rated: bool = True
    difficulty: DifficultyChoice = Field(
        "any", description="the solver's effort on the match deals (docs/solver.md)")


class InviteIn(RequestBody):
    to: str | None = Field(None, min_length=1, max_length=64, pattern=NAME_PATTERN,
                           description="a friend's name; leave out for a link invitation")


class RatingOut(RatingInfo):
    suits: Suits  # the service's value, under its API name, its suit count precise


class SoloSuitStatsOut(BaseModel):
    suits: Suits
    games: int = Field(description="solo and daily games of this suit count, any status")
    wins: int
    best_time_ms: int | None
    best_points: int | None
    points: int
    points_week: int


class DailyStatsOut(BaseModel):
    played: int = 0
    won: int = 0
    current_streak: int = 0
    best_streak: int = 0
    last_won: date | None = None


class PlayerOut(PlayerInfo):
    ratings: Sequence[RatingOut]
    solo: list[SoloSuitStatsOut] = Field(
        default_factory=list, description="one entry per suit count 1, 2, 4")
    daily: DailyStatsOut = Field(default_factory=DailyStatsOut)
    badges: int = Field(0, description="how many badges the player holds")

    @classmethod
    def of(cls, info: PlayerInfo, **more: Any) -> "PlayerOut":
        """The profile, with what other services add (``solo``, ``daily``, ``badges``)."""
        return cls.model_validate({**info.model_dump(), **more})


class NewPlayerOut(BaseModel):
    player: PlayerOut
    token: str = Field(description="send as 'Authorization: Bearer <token>'")


class ContactOut(BaseModel):
    id: int
    name: str
    since: datetime
    online: bool

    @classmethod
    def of(cls, contact: Contact) -> "ContactOut":
        return cls(id=contact.id, name=contact.name, since=contact.since,
                   online=contact.online)


class FriendRequestOut(BaseModel):
    """The other player of a friend request (who asked me, or whom I asked), and since when."""

    id: int
    name: str
    since: datetime

    @classmethod
    def of(cls, request: PendingRequest) -> "FriendRequestOut":
        return cls(id=request.id, name=request.name, since=request.since)


class FriendRequestsOut(BaseModel):
    incoming: list[FriendRequestOut] = Field(description="Waiting for my answer, newest first.")
    outgoing: list[FriendRequestOut] = Field(description="Mine, waiting for theirs.")


class FriendRequestSent(BaseModel):
    status: Literal["requested", "friends"] = Field(
        description="`friends`: the other player had asked me, so we are friends now.")
    player: FriendRequestOut


class SeatOut(BaseModel):
    seat: int
    player_id: int
    name: str
    wants_new_game: bool


class TableOut(BaseModel):
    id: int
    owner_id: int
    owner_name: str
    preset: str
    suits: Suits
    time_limit_seconds: int
    level: str
    public: bool
    rated: bool
    difficulty: str = "any"
    daily_date: date | None = None
    """Set for a daily-duel table: its match deals that day's daily deal."""
    quick: bool = False
    """A quick-duel table: the quick matcher fills it (POST /api/quick-duel)."""
    status: str
    created_at: datetime
    expires_at: datetime | None
    seats: list[SeatOut]
    match_id: int | None
    match_status: str | None

    @classmethod
    def of(cls, view: TableView) -> "TableOut":
        table = view.table
        return cls(
            **_columns(table, "id", "owner_id", "preset", "suits", "time_limit_seconds",
                       "level", "rated", "difficulty", "daily_date", "quick", "status",
                       "created_at", "expires_at"),
            owner_name=view.owner_name, public=table.is_public,
            seats=[SeatOut(seat=s.seat, player_id=s.player_id, name=s.name,
                           wants_new_game=s.wants_new_game) for s in view.seats],
            match_id=view.match.id if view.match else None,
            match_status=view.match.status if view.match else None,
        )


class PageMeta(BaseModel):
    total: int
    page: int
    page_size: int

    @classmethod
    def of(cls, found: Page[Any], item: Callable[[Any], BaseModel]) -> Self:
        """A service's page as this answer (its ``items``: each item through ``item``)."""
        return cls.model_validate({"total": found.total, "page": found.page,
                                   "page_size": found.page_size,
                                   "items": [item(each) for each in found.items]})


class TablePage(PageMeta):
    items: list[TableOut]


class ContactPage(PageMeta):
    items: list[ContactOut]


class InviteTableOut(BaseModel):
    """What an invitation's landing page may show a visitor: the game, not the table."""

    preset: str
    suits: Suits
    time_limit_seconds: int
    rated: bool

    @classmethod
    def of(cls, table: DuelTable) -> "InviteTableOut":
        return cls(preset=table.preset, suits=table.suits,
                   time_limit_seconds=table.time_limit_seconds, rated=table.rated)


class InviteOut(BaseModel):
    code: str
    table_id: int
    inviter_id: int
    inviter_name: str
    invitee_id: int | None
    invitee_name: str | None
    kind: Literal["direct", "link"]
    status: Literal["pending", "accepted", "declined", "cancelled", "expired"]
    created_at: datetime
    expires_at: datetime
    table: TableOut | None = None
    game: InviteTableOut = Field(description="the game invited to (what a list of "
                                 "invitations shows: who invites to what)")

    @classmethod
    def of(cls, view: InviteView, table: TableOut | None = None) -> "InviteOut":
        invite = view.invite
        return cls(
            code=invite.code, table_id=invite.table_id, inviter_id=invite.inviter_id,
            inviter_name=view.inviter_name, invitee_id=invite.invitee_id,
            invitee_name=view.invitee_name,
            kind="direct" if invite.invitee_id is not None else "link",
            status=view.state,
            created_at=invite.created_at, expires_at=invite.expires_at, table=table,
            game=InviteTableOut.of(view.table),
        )


class InvitePage(PageMeta):
    items: list[InviteOut]


class PublicInviteOut(BaseModel):
    """A link invitation seen without a token: who invites to what, nothing to act on."""

    inviter_name: str
    status: Literal["pending", "accepted", "declined", "cancelled", "expired"]
    expires_at: datetime
    table: InviteTableOut

    @classmethod
    def of(cls, view: InviteView) -> "PublicInviteOut":
        table = view.table
        return cls(inviter_name=view.inviter_name, status=view.state,
                   expires_at=view.invite.expires_at,
                   table=InviteTableOut.of(table))


class PlayerNameOut(BaseModel):
    id: int
    name: str


class PlayerNamePage(PageMeta):
    items: list[PlayerNameOut]


class GameResultOut(GameResult):
    status: GameStatus = Field(description=GAME_STATUS_HELP)
    rating_change: float | None

    @classmethod
    def of(cls, game: GameResult) -> "GameResultOut":
        change = (None if game.rating_before is None or game.rating_after is None
                  else game.rating_after - game.rating_before)
        return cls(**game.model_dump(), rating_change=change)


class PlayThisDealOut(BaseModel):
    """A solo game that deals the match's cards again (``POST /api/solo/games`` body)."""

    number: int = Field(description="the solo deal number: a duel's is 1,000,000 to "
                        "2**48 − 1 (a daily duel's: the daily deal's, 1–999,999)")
    suits: Suits
    solvable_only: bool


class MatchResultOut(BaseModel):
    match_id: int
    table_id: int
    ordinal: int
    status: str
    preset: str
    rated: bool
    time_limit_seconds: int
    winner_id: int | None
    draw: bool
    games: list[GameResultOut]
    deal_number: int | None = Field(description="revealed once both games are over")
    suits: Suits | None = Field(description="revealed once both games are over")
    generator_version: int | None
    difficulty: str | None
    play: PlayThisDealOut | None = Field(
        description="revealed once both games are over: the solo deal that deals these "
                    "cards again (null for a test layout)")
    ended_at: datetime | None
    start_deadline: datetime | None = Field(
        None, description="while a game of the match is not opened yet: when it ends as "
        "did_not_start (the no-show rule); null otherwise")

    @classmethod
    def of(cls, result: MatchReport, start_deadline: datetime | None = None
           ) -> "MatchResultOut":
        match = result.match
        return cls(
            **_columns(match, "table_id", "ordinal", "status", "preset", "rated",
                       "time_limit_seconds", "winner_id", "ended_at"),
            match_id=match.id, draw=match.status == "finished" and match.winner_id is None,
            games=[GameResultOut.of(g) for g in result.games],
            deal_number=result.deal_number, suits=result.suits,
            generator_version=match.generator_version if result.over else None,
            difficulty=match.difficulty if result.over else None,
            play=None if result.play is None else PlayThisDealOut(**result.play),
            start_deadline=start_deadline,
        )


class HistoryEntryOut(HistoryEntry):
    suits: Suits
    status: GameStatus = Field(description=GAME_STATUS_HELP)

    @classmethod
    def of(cls, entry: HistoryEntry) -> "HistoryEntryOut":
        return cls.model_validate(entry, from_attributes=True)


class HistoryPage(PageMeta):
    items: list[HistoryEntryOut]


class LeaderboardEntryOut(LeaderboardEntry):
    @classmethod
    def of(cls, entry: LeaderboardEntry) -> "LeaderboardEntryOut":
        return cls.model_validate(entry, from_attributes=True)


class LeaderboardPage(PageMeta):
    suits: Suits
    items: list[LeaderboardEntryOut]


class BandOut(BaseModel):
    name: str
    min_rating: float | None
    max_rating: float | None


class ProblemOut(BaseModel):
    """RFC 9457 problem details; every error response has this shape."""

    type: str
    title: str
    status: int
    detail: str
    code: str
