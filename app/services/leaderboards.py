"""Solo leaderboards and a player's solo stats (docs/solo-and-daily.md sections 4 and 7).

Points boards sum the points of won solo **and** daily games of one suit count, unassisted
ones only (docs/points.md, "Fair play": a bot following hints must not top them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.db.solo_models import PlayerBadge, SoloGame
from app.rewards.solo import SUIT_COUNTS
from app.services import daily
from app.services.solo_store import DAILY_WINDOW


def week_start(now: datetime) -> datetime:
    """Monday 00:00 UTC of ``now``'s ISO week."""
    day = now.astimezone(UTC).date()
    return datetime.combine(day - timedelta(days=day.weekday()), time(0), tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class PointsEntry:
    rank: int
    player_id: int
    name: str
    points: int
    wins: int


async def solo_points(*, session: AsyncSession, suits: int, period: str, now: datetime,
                      page: int, page_size: int) -> tuple[list[PointsEntry], int]:
    """Players by points won with ``suits`` (all time or this week), paged in SQL."""
    where = [SoloGame.status == "won", SoloGame.suits == suits, SoloGame.assisted.is_(False)]
    if period == "week":
        where.append(SoloGame.ended_at >= week_start(now))
    totals = (select(SoloGame.player_id, func.sum(SoloGame.points).label("points"),
                     func.count().label("wins"))
              .where(*where).group_by(SoloGame.player_id).subquery())
    total = await session.scalar(select(func.count()).select_from(totals))
    # rank() = 1 + players with strictly more points: ties share a rank.
    ranked = select(totals, func.rank().over(order_by=totals.c.points.desc()).label("rank")
                    ).subquery()
    rows = (await session.execute(
        select(ranked.c.rank, ranked.c.player_id, Player.name, ranked.c.points, ranked.c.wins)
        .join(Player, Player.id == ranked.c.player_id)
        .order_by(ranked.c.points.desc(), ranked.c.wins, ranked.c.player_id)
        .limit(page_size).offset((page - 1) * page_size))).all()
    entries = [PointsEntry(rank, player_id, name, int(points), wins)
               for rank, player_id, name, points, wins in rows]
    return entries, total or 0


@dataclass(frozen=True, slots=True)
class SuitStats:
    suits: int
    games: int
    wins: int
    best_time_ms: int | None
    best_points: int | None
    points: int
    points_week: int


@dataclass(frozen=True, slots=True)
class DailyStats:
    played: int
    won: int
    current_streak: int
    best_streak: int
    last_won: date | None


@dataclass(frozen=True, slots=True)
class SoloStats:
    solo: list[SuitStats]
    daily: DailyStats
    badges: int


async def solo_stats(*, session: AsyncSession, player_id: int, now: datetime) -> SoloStats:
    """A player's solo stats per suit count, daily stats and badge count."""
    won = SoloGame.status == "won"
    this_week = and_(won, SoloGame.ended_at >= week_start(now))
    # A game counts once over, a solo game as a daily one: in progress it is not yet an
    # attempt (the player's own statistics count it so too), and public stats would
    # tell who is playing right now.
    counted = or_(and_(SoloGame.kind == "solo", SoloGame.status != "playing"),
                  and_(SoloGame.kind == "daily", _daily_over(now)))
    rows = (await session.execute(
        select(SoloGame.suits, func.count(), func.count().filter(won),
               func.min(SoloGame.elapsed_ms).filter(won), func.max(SoloGame.points),
               func.coalesce(func.sum(SoloGame.points), 0),
               func.coalesce(func.sum(case((this_week, SoloGame.points), else_=0)), 0))
        .where(SoloGame.player_id == player_id, counted).group_by(SoloGame.suits))).all()
    found = {row[0]: row for row in rows}
    solo = [
        SuitStats(suits, *_counts(found[suits][1:])) if suits in found
        else SuitStats(suits, 0, 0, None, None, 0, 0)
        for suits in SUIT_COUNTS
    ]
    return SoloStats(solo, await _daily_stats(session, player_id, now),
                     await session.scalar(select(func.count()).select_from(PlayerBadge)
                                          .where(PlayerBadge.player_id == player_id)) or 0)


def _counts(row: Sequence[Any]) -> tuple[int, int, int | None, int | None, int, int]:
    games, wins, best_time, best_points, points, week = row
    return int(games), int(wins), best_time, best_points, int(points), int(week)


def _daily_over(now: datetime) -> ColumnElement[bool]:
    """A daily game over: ended, or still "playing" past its window (it ends lazily, and
    counts as expired meanwhile)."""
    today = now.astimezone(UTC).date()
    return or_(SoloGame.status != "playing", SoloGame.daily_date <= today - DAILY_WINDOW)


async def _daily_stats(session: AsyncSession, player_id: int, now: datetime) -> DailyStats:
    today = now.astimezone(UTC).date()
    played, won = (await session.execute(
        select(func.count().filter(_daily_over(now)),
               func.count().filter(SoloGame.status == "won"))
        .where(SoloGame.player_id == player_id, SoloGame.kind == "daily"))).one()
    streak = await daily.streak_of(session=session, player_id=player_id, today=today)
    return DailyStats(played, won, streak.current, streak.best, streak.last_won)
