"""The schema, as SQLAlchemy 2 declarative models.

The tables are created only by Alembic migrations (alembic/versions); these classes are
the Python view of them, and a test checks the two agree.
"""

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Stable constraint names so migrations can name what they drop, on every backend.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


def utc_from_seconds(seconds: float) -> datetime:
    """POSIX seconds as the aware UTC datetime the columns take."""
    return datetime.fromtimestamp(seconds, UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out; SQLite would otherwise hand back naive ones."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use UTC-aware datetimes")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime, dict[str, Any]: JSON}  # noqa: RUF012


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    # Case-folded name: "Ann" and "ann" are the same name.
    name_key: Mapped[str] = mapped_column(String(24), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


def _player_key(*, sort_order: int) -> Mapped[int]:
    # sort_order: declarative would put a mixin's columns after the class's own, turning
    # the primary key into (other, player): not the tables the migrations made, nor the
    # order session.get(model, (player_id, other_id)) passes.
    return mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True,
                         sort_order=sort_order)


class PlayerList:
    """One of a player's lists of other players: one row per (player, other), keyed in
    that order, gone with either player. A subclass names the other player's column
    and checks that it is not ``player_id``."""

    player_id: Mapped[int] = _player_key(sort_order=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, sort_order=2)


class Friendship(PlayerList, Base):
    """``player`` keeps ``friend`` in their friend list; friends are mutual, so an accepted
    request writes both rows and removing a friend deletes both (app/services/friends.py)."""

    __tablename__ = "friendships"
    friend_id: Mapped[int] = _player_key(sort_order=1)
    __table_args__ = (CheckConstraint("player_id <> friend_id", name="not_self"),)


class Ignore(PlayerList, Base):
    """``player`` ignores ``ignored``: no invites, no joining, no private tables seen."""

    __tablename__ = "ignores"
    ignored_id: Mapped[int] = _player_key(sort_order=1)
    __table_args__ = (CheckConstraint("player_id <> ignored_id", name="not_self"),)


class FriendRequest(PlayerList, Base):
    """``player`` asks ``invitee`` to be friends; accepted, it becomes a friendship both
    ways (two ``friendships`` rows) and the request is gone; declined or withdrawn, gone."""

    __tablename__ = "friend_requests"
    invitee_id: Mapped[int] = _player_key(sort_order=1)
    __table_args__ = (CheckConstraint("player_id <> invitee_id", name="not_self"),
                      Index("ix_friend_requests_invitee", "invitee_id"))


class DuelTable(Base):
    """A table with two seats and fixed settings; it may hold several matches."""

    __tablename__ = "duel_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    preset: Mapped[str] = mapped_column(String(16))
    suits: Mapped[int] = mapped_column(Integer)
    time_limit_seconds: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(16))  # a rating band name or "any"
    # The solver's effort on the deals of its matches: easy/medium/hard, or "any".
    difficulty: Mapped[str] = mapped_column(String(6), default="any", server_default="any")
    is_public: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open / full / closed
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(default=None)
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    # A daily-duel table: its one match deals this day's daily deal (app/services/daily_duel.py).
    daily_date: Mapped[date | None] = mapped_column(Date, default=None)
    # A quick-duel table: the quick matcher fills it (app/services/quick_duel.py).
    quick: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    __table_args__ = (
        CheckConstraint("suits IN (1, 2, 4)", name="suits"),
        CheckConstraint("time_limit_seconds > 0", name="time_limit"),
        CheckConstraint("status IN ('open', 'full', 'closed')", name="status"),
        CheckConstraint("difficulty IN ('any', 'easy', 'medium', 'hard')", name="difficulty"),
        Index("ix_duel_tables_lobby", "status", "is_public", "suits"),
        Index("ix_duel_tables_daily", "daily_date", "status", "level"),
        Index("ix_duel_tables_quick", "quick", "status", "suits", "level"),
    )


class Seat(Base):
    """Who sits where; ``wants_new_game`` records agreement to play another match."""

    __tablename__ = "seats"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("duel_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    wants_new_game: Mapped[bool] = mapped_column(Boolean, default=False)
    __table_args__ = (
        CheckConstraint("seat IN (0, 1)", name="seat"),
        UniqueConstraint("table_id", "player_id", name="uq_seats_table_player"),
        Index("ix_seats_player", "player_id"),
    )


class Invite(Base):
    """An invitation to a table: to one player (``invitee_id``) or to whoever has the link."""

    __tablename__ = "invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(64), unique=True)  # ≥ 128 random bits
    table_id: Mapped[int] = mapped_column(ForeignKey("duel_tables.id", ondelete="CASCADE"))
    inviter_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    invitee_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), default=None
    )
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column()
    responded_at: Mapped[datetime | None] = mapped_column(default=None)
    __table_args__ = (
        CheckConstraint(
            "status IN ('pending', 'accepted', 'declined', 'cancelled')", name="status"
        ),
        Index("ix_invites_invitee", "invitee_id", "status"),
    )


class Match(Base):
    """One identical deal for both players at a table."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("duel_tables.id", ondelete="CASCADE"))
    ordinal: Mapped[int] = mapped_column(Integer)  # 1, 2, … within the table
    preset: Mapped[str] = mapped_column(String(16))
    suits: Mapped[int] = mapped_column(Integer)
    time_limit_seconds: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    # BIGINT: solvable-deal mappings name generator deals up to 2**48 (issue 3).
    deal_number: Mapped[int | None] = mapped_column(BigInteger, default=None)
    generator_version: Mapped[int | None] = mapped_column(Integer, default=None)
    # The number a solo game deals these same cards from, with "solvable only" on or off
    # (the share text's "play this deal" link): a duel number, 1,000,000 to 2**48 - 1
    # (BIGINT; a daily duel's: 1-999,999); NULL for a test layout.
    # A seed: never shown before the end.
    play_number: Mapped[int | None] = mapped_column(BigInteger, default=None)
    play_solvable_only: Mapped[bool | None] = mapped_column(Boolean, default=None)
    # The full starting layout (rule book form) when it is not just a generator deal:
    # a solvable-deal mapping or a test layout. Rebuilding prefers it when present.
    layout: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    difficulty: Mapped[str | None] = mapped_column(String(32), default=None)
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing / finished
    winner_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), default=None
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    __table_args__ = (
        UniqueConstraint("table_id", "ordinal", name="uq_matches_table_ordinal"),
        CheckConstraint("status IN ('playing', 'finished', 'aborted')", name="status"),
        CheckConstraint(
            "deal_number IS NOT NULL OR layout IS NOT NULL", name="has_deal"
        ),
        CheckConstraint(
            "play_number IS NULL OR play_number BETWEEN 1 AND 281474976710655",
            name="play_number",
        ),
    )


GAME_STATUSES = ("playing", "won", "finished", "timed_out")


class Game(Base):
    """One player's game within a match; rebuilt from the action log when needed."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    score: Mapped[int] = mapped_column(Integer, default=0)
    actions_count: Mapped[int] = mapped_column(Integer, default=0)
    time_used_ms: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime | None] = mapped_column(default=None)  # opened by the player
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    rating_before: Mapped[float | None] = mapped_column(Float, default=None)
    rating_after: Mapped[float | None] = mapped_column(Float, default=None)
    __table_args__ = (
        UniqueConstraint("match_id", "player_id", name="uq_games_match_player"),
        UniqueConstraint("match_id", "seat", name="uq_games_match_seat"),
        CheckConstraint(
            "status IN ('playing', 'won', 'finished', 'timed_out')", name="status"
        ),
        Index("ix_games_player", "player_id"),
    )


class GameAction(Base):
    """Append-only log of a game's legal actions; ``seq`` 1, 2, … unique per game."""

    __tablename__ = "game_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)  # the rule book's JSON form
    at: Mapped[datetime] = mapped_column(default=utcnow)
    # The game's totals after this action (the games row gets them when the game ends;
    # NULL on rows logged before revision 0009, whose games row kept them instead).
    score: Mapped[int | None] = mapped_column(Integer, default=None)
    actions_count: Mapped[int | None] = mapped_column(Integer, default=None)
    time_used_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_game_actions_game_seq"),
        CheckConstraint("seq >= 1", name="seq"),
    )


class Rating(Base):
    """Glicko-2 rating of a player for one suit count."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    suits: Mapped[int] = mapped_column(Integer, primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    __table_args__ = (
        CheckConstraint("suits IN (1, 2, 4)", name="suits"),
        Index("ix_ratings_leaderboard", "suits", "rating"),
    )
