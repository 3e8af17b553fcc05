"""The solo layer's tables: solo and daily games, their action log, badges, streaks.

Beside ``app.db.models`` (same ``Base``, same migrations) so neither module grows past
the layout's size limit; docs/solo-and-daily.md, section 3.
"""

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow

SOLO_STATUSES = ("playing", "won", "abandoned", "expired")


class SoloGame(Base):
    """A solo or daily game of one player (docs/solo-and-daily.md, section 3).

    The counters are caches of the action log (``solo_actions``), written in the same
    transaction as each append.
    """

    __tablename__ = "solo_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(5))  # solo / daily
    # BIGINT: a duel's "play this deal" number goes up to 2**48 - 1 (migration 0008).
    number: Mapped[int] = mapped_column(BigInteger)
    suits: Mapped[int] = mapped_column(Integer)
    solvable_only: Mapped[bool] = mapped_column(Boolean)
    relaxed: Mapped[bool] = mapped_column(Boolean)
    source_deal: Mapped[int] = mapped_column(BigInteger)  # up to 2**48
    generator_version: Mapped[int] = mapped_column(Integer, default=1)
    mapping_version: Mapped[int | None] = mapped_column(Integer, default=None)
    difficulty: Mapped[str | None] = mapped_column(String(6), default=None)
    daily_date: Mapped[date | None] = mapped_column(Date, default=None)
    status: Mapped[str] = mapped_column(String(9), default="playing")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    actions_count: Mapped[int] = mapped_column(Integer, default=0)
    undos: Mapped[int] = mapped_column(Integer, default=0)
    hints: Mapped[int] = mapped_column(Integer, default=0)
    rescues: Mapped[int] = mapped_column(Integer, default=0)
    auto_completed: Mapped[bool] = mapped_column(Boolean, default=False)
    score: Mapped[int] = mapped_column(Integer, default=0)
    elapsed_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    points: Mapped[int | None] = mapped_column(Integer, default=None)
    # The fair-play verdict of its assists (app/rewards/fair_play.py), cached for the
    # boards' SQL: set by app/services/solo_assists.py, never cleared.
    assisted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    undo_to_winnable: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    __table_args__ = (
        CheckConstraint("kind IN ('solo', 'daily')", name="kind"),
        CheckConstraint("number BETWEEN 1 AND 281474976710655", name="number"),
        CheckConstraint("suits IN (1, 2, 4)", name="suits"),
        CheckConstraint(
            "status IN ('playing', 'won', 'abandoned', 'expired')", name="status"
        ),
        CheckConstraint("(kind = 'daily') = (daily_date IS NOT NULL)", name="daily_date"),
        CheckConstraint("(status = 'playing') = (ended_at IS NULL)", name="ended"),
        CheckConstraint("(status = 'won') = (points IS NOT NULL)", name="points"),
        UniqueConstraint("player_id", "daily_date", name="uq_solo_games_player_daily"),
        Index("ix_solo_games_one_playing", "player_id", unique=True,
              sqlite_where=text("kind = 'solo' AND status = 'playing'"),
              postgresql_where=text("kind = 'solo' AND status = 'playing'")),
        Index("ix_solo_games_history", "player_id", "ended_at"),
        Index("ix_solo_games_points", "status", "suits", "ended_at"),
        Index("ix_solo_games_daily", "daily_date", "status", "elapsed_ms"),
    )


SOLO_ACTORS = ("player", "rescue", "auto_complete")


class SoloAction(Base):
    """Append-only log of a solo game's legal actions; ``by`` says who chose each."""

    __tablename__ = "solo_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("solo_games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    by: Mapped[str] = mapped_column(String(13), default="player")
    at: Mapped[datetime] = mapped_column(default=utcnow)
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_solo_actions_game_seq"),
        CheckConstraint("seq >= 1", name="seq"),
        CheckConstraint("by IN ('player', 'rescue', 'auto_complete')", name="by"),
    )


class SoloAssistEntry(Base):
    """One assist a solo or daily game used: its kind, the game's action count when it was
    asked (``seq``, 0 at the deal), how many actions it played, and when."""

    __tablename__ = "solo_assists"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("solo_games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    actions: Mapped[int] = mapped_column(Integer, default=0)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    __table_args__ = (
        CheckConstraint("seq >= 0", name="seq"),
        CheckConstraint("actions >= 0", name="actions"),
        CheckConstraint(
            "kind IN ('hint', 'rescue', 'undo_to_winnable', 'auto_complete')", name="kind"),
        Index("ix_solo_assists_game", "game_id", "id"),
    )


class PlayerBadge(Base):
    """A badge a player earned, once, with the game or match that earned it."""

    __tablename__ = "player_badges"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    earned_at: Mapped[datetime] = mapped_column()
    solo_game_id: Mapped[int | None] = mapped_column(
        ForeignKey("solo_games.id", ondelete="CASCADE"), default=None
    )
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), default=None
    )
    __table_args__ = (
        CheckConstraint("(solo_game_id IS NULL) <> (match_id IS NULL)", name="one_source"),
    )


class DailyStreak(Base):
    """Cache of a player's daily streak for the streak leaderboard (recomputed per win)."""

    __tablename__ = "daily_streaks"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    run: Mapped[int] = mapped_column(Integer)
    best: Mapped[int] = mapped_column(Integer)
    last_won: Mapped[date] = mapped_column(Date)
