"""The daily deal: one counted attempt per player per UTC day, its board, the streaks.

docs/solo-and-daily.md sections 2 ("The daily deal", "Streaks"), 3 (``daily_streaks``),
4 ("The daily deal") and 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from pydantic import BaseModel, ConfigDict
from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.db.solo_models import DailyStreak, SoloGame
from app.engine.daily import DAILY_SUITS, daily_deal_number
from app.errors import Conflict, Forbidden, NotFound
from app.rewards.solo import SoloOptions
from app.rewards.streaks import NO_STREAK, Streak, daily_streak
from app.services.paging import Page
from app.services.settled import SoloSettled, solo_settled

ONE_DAY = timedelta(days=1)
LOST = ("abandoned", "expired")


class DailyAlreadyPlayed(Conflict):
    code = "daily_already_played"

    def __init__(self, detail: str, *, game_id: int) -> None:
        super().__init__(detail)
        self.extra = {"game_id": game_id}


async def won_days(*, session: AsyncSession, player_id: int, assisted: bool = False
                   ) -> list[date]:
    """The days whose daily the player won unassisted (``assisted``: with assists, the
    days that bridge a streak: app/rewards/streaks.py)."""
    return [day for day in await session.scalars(select(SoloGame.daily_date).where(
        SoloGame.player_id == player_id, SoloGame.kind == "daily",
        SoloGame.status == "won", SoloGame.assisted.is_(assisted))) if day is not None]


async def today_lost(*, session: AsyncSession, player_id: int, today: date) -> bool:
    """Today's daily of the player is over without a win (or past its window)."""
    game = (await session.scalars(select(SoloGame).where(
        SoloGame.player_id == player_id, SoloGame.daily_date == today))).one_or_none()
    return game is not None and game.status in LOST


async def streak_of(*, session: AsyncSession, player_id: int, today: date) -> Streak:
    """The player's daily streak as ``daily_streak`` says, from the stored games."""
    days = [day for day in await won_days(session=session, player_id=player_id)
            if day <= today]
    bridged = [day for day in await won_days(session=session, player_id=player_id,
                                             assisted=True) if day <= today]
    if not days:
        return NO_STREAK  # bridges alone are no streak
    lost = await today_lost(session=session, player_id=player_id, today=today)
    return daily_streak(days, today=today, bridged_days=bridged,
                        today_lost=lost and today not in days and today not in bridged)


async def record_win(*, session: AsyncSession, player_id: int) -> None:
    """Recompute the player's streak cache after a daily win (caller's transaction)."""
    days = await won_days(session=session, player_id=player_id)
    bridged = await won_days(session=session, player_id=player_id, assisted=True)
    if not days:
        return  # bridges alone are no streak: no line on the streak board
    last = max(days + bridged)
    # the run ending at the last day won, assisted or not
    streak = daily_streak(days, today=last, bridged_days=bridged)
    row = await session.get(DailyStreak, player_id)
    if row is None:
        session.add(DailyStreak(player_id=player_id, run=streak.current, best=streak.best,
                                last_won=last))
    else:
        row.run, row.best, row.last_won = streak.current, streak.best, last


async def on_solo_settled(event: SoloSettled, session: AsyncSession) -> None:
    """A daily won: its player's streak cache follows, in the transaction that settles
    the game (once per game, atomically with its end, as every listener of
    ``app/services/settled.py``)."""
    if event.kind == "daily" and event.status == "won":
        await record_win(session=session, player_id=event.player_id)


solo_settled.subscribe(on_solo_settled)


def current_from_cache(row: DailyStreak, *, today: date, lost_today: bool) -> int:
    """The current streak from the cache: the read-time rule of section 3."""
    alive = row.last_won == today or (row.last_won == today - ONE_DAY and not lost_today)
    return row.run if alive else 0


def check_not_todays_daily(*, number: int, options: SoloOptions, today: date) -> None:
    """Refuse a solo game on the cards of today's daily deal (its number, 2 suits, solvable
    deals only, either rule) while that day lasts: it would let a player practise the one
    attempt that counts. From tomorrow (UTC) it is a deal like any other. 409
    ``daily_deal_today``."""
    if (options.suits == DAILY_SUITS and options.solvable_only
            and number == daily_deal_number(today)):
        raise Conflict("that is today's daily deal: play it on the Daily screen (as a solo "
                       "game from tomorrow, UTC)", code="daily_deal_today")


@dataclass(frozen=True, slots=True)
class DayCounts:
    """A day's attempts: ``players`` finished theirs (won, lost or given up), ``winners``
    won it, ``playing`` are still at it (not counted as played: they may yet win)."""

    players: int
    winners: int
    playing: int


async def day_counts(*, session: AsyncSession, day: date) -> DayCounts:
    rows = (await session.execute(
        select(SoloGame.status, func.count()).where(SoloGame.daily_date == day)
        .group_by(SoloGame.status))).all()
    by_status = {status: count for status, count in rows}
    playing = by_status.pop("playing", 0)
    return DayCounts(sum(by_status.values()), by_status.get("won", 0), playing)


class BoardEntry(BaseModel):
    """One line of a daily board; the API answers it as it is (DailyBoardEntryOut)."""

    model_config = ConfigDict(frozen=True)

    rank: int | None
    """None for an assisted win: listed, marked, not ranked (docs/points.md, Fair play)."""
    player_id: int
    name: str
    elapsed_ms: int
    actions: int
    points: int
    rescues: int
    ended_at: datetime
    assisted: bool = False
    hints: int = 0


async def rank_of(*, session: AsyncSession, game: SoloGame) -> int | None:
    """A won daily game's rank on its day's board (as ``board`` ranks: 1 + the wins strictly
    better on time, then actions); None for a game not won."""
    if (game.status != "won" or game.daily_date is None or game.elapsed_ms is None
            or game.assisted):
        return None
    better = await session.scalar(select(func.count()).select_from(SoloGame).where(
        SoloGame.daily_date == game.daily_date, SoloGame.status == "won",
        SoloGame.assisted.is_(False),
        or_(SoloGame.elapsed_ms < game.elapsed_ms,
            and_(SoloGame.elapsed_ms == game.elapsed_ms,
                 SoloGame.actions_count < game.actions_count))))
    return 1 + (better or 0)


async def board(*, session: AsyncSession, day: date, today: date, viewer_id: int | None,
                page: int, page_size: int) -> Page[BoardEntry]:
    """Won daily games of ``day``, fastest first (ties on time and actions share a rank);
    assisted wins after them, fastest first, marked and without a rank."""
    if day > today:
        raise NotFound(f"{day} has no daily deal yet", code="no_such_day")
    if day == today and not await _finished_today(session=session, viewer_id=viewer_id,
                                                  today=today):
        raise Forbidden("finish today's daily deal to see today's board",
                        code="daily_not_finished")
    won = and_(SoloGame.daily_date == day, SoloGame.status == "won")
    total = await session.scalar(select(func.count()).select_from(SoloGame).where(won))
    # rank() over (time, actions) = 1 + games strictly better on both: ties share a rank.
    # Ranked apart: the unassisted wins among themselves, the assisted ones (unranked) after.
    rank = func.rank().over(partition_by=SoloGame.assisted,
                            order_by=(SoloGame.elapsed_ms, SoloGame.actions_count))
    ranked = select(SoloGame.id, rank.label("rank")).where(won).subquery()
    rows = (await session.execute(
        select(ranked.c.rank, SoloGame, Player.name)
        .join(SoloGame, SoloGame.id == ranked.c.id)
        .join(Player, Player.id == SoloGame.player_id)
        .order_by(SoloGame.assisted, SoloGame.elapsed_ms, SoloGame.actions_count,
                  SoloGame.ended_at, SoloGame.player_id)
        .limit(page_size).offset((page - 1) * page_size))).all()
    items = [BoardEntry(rank=None if game.assisted else rank, player_id=game.player_id,
                        name=name, elapsed_ms=game.elapsed_ms or 0,
                        actions=game.actions_count, points=game.points or 0,
                        rescues=game.rescues, ended_at=game.ended_at or game.created_at,
                        assisted=game.assisted, hints=game.hints)
             for rank, game, name in rows]
    return Page(items, total or 0, page, page_size)


async def _finished_today(*, session: AsyncSession, viewer_id: int | None, today: date
                          ) -> bool:
    if viewer_id is None:
        return False
    status = await session.scalar(select(SoloGame.status).where(
        SoloGame.player_id == viewer_id, SoloGame.daily_date == today))
    return status is not None and status != "playing"


class StreakEntry(BaseModel):
    """One line of the streak board; the API answers it as it is (StreakEntryOut)."""

    model_config = ConfigDict(frozen=True)

    rank: int
    player_id: int
    name: str
    current: int
    best: int
    last_won: date


async def streak_board(*, session: AsyncSession, order: str, today: date, page: int,
                       page_size: int) -> tuple[list[StreakEntry], int]:
    """Players by current (at least 1) or best streak, from the cache, paged in SQL."""
    lost_today = select(SoloGame.player_id).where(SoloGame.daily_date == today,
                                                  SoloGame.status.in_(LOST))
    current = case(
        (DailyStreak.last_won == today, DailyStreak.run),
        (and_(DailyStreak.last_won == today - ONE_DAY,
              DailyStreak.player_id.not_in(lost_today)), DailyStreak.run),
        else_=0,
    ).label("current")
    where = current >= 1 if order == "current" else DailyStreak.best >= 1
    first = current if order == "current" else DailyStreak.best
    total = await session.scalar(select(func.count()).select_from(DailyStreak).where(where))
    ranked = select(DailyStreak.player_id, current, DailyStreak.best, DailyStreak.last_won,
                    func.rank().over(order_by=first.desc()).label("rank")).where(where).subquery()
    ordered = ((ranked.c.current, ranked.c.best) if order == "current"
               else (ranked.c.best, ranked.c.current))
    rows = (await session.execute(
        select(ranked.c.rank, ranked.c.player_id, Player.name, ranked.c.current,
               ranked.c.best, ranked.c.last_won)
        .join(Player, Player.id == ranked.c.player_id)
        .order_by(ordered[0].desc(), ordered[1].desc(), ranked.c.player_id)
        .limit(page_size).offset((page - 1) * page_size))).all()
    entries = [StreakEntry(rank=rank, player_id=player_id, name=name, current=current,
                           best=best, last_won=last_won)
               for rank, player_id, name, current, best, last_won in rows]
    return entries, total or 0
