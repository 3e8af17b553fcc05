"""The daily duel: today's daily deal as a duel against another player of one's rating band.

A daily-duel table is a duel table (``app/services/tables.py``) with ``daily_date`` set:
private (not in the lobby: the matcher seats players, as an invitation would), unrated,
``classic`` rules and 2 suits like the daily game, 15 minutes; its one match deals that
day's daily deal (``deals.daily_choice``), and it never starts another
(``daily_duel_once``). Taking the daily duel seats the player at the oldest waiting table
of the day in their band (2-suit rating, ``app/services/bands.py``), else opens one that
waits until the end of the day (UTC).

One daily duel per player per day; it is not the daily attempt: the daily game, its board
and streaks know nothing of it (docs/solo-and-daily.md, "The daily duel").
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import DuelTable, Game, Match, Player, Seat, utcnow
from app.engine.daily import DAILY_SUITS
from app.errors import Conflict, Forbidden
from app.services import tables
from app.services.bands import band_of
from app.services.ratings import rating_of
from app.services.tables import TableView

DAILY_DUEL_PRESET = "classic"  # the daily game's rules: automatic flips
DAILY_DUEL_SECONDS = 15 * 60
CANDIDATES = 5
"""Waiting tables tried in turn when another player takes the first at the same moment."""


@dataclass(frozen=True)
class DailyDuel:
    view: TableView
    created: bool  # a new table, waiting for an opponent


async def take_daily_duel(*, session: AsyncSession, player: Player, day: date,
                          ttl_seconds: int) -> DailyDuel:
    """My daily-duel table of ``day``: the one I sit at, else a seat at a waiting table of
    my band (the match starts), else a new table. Commits. 409 ``daily_duel_played`` once
    I played that day's daily duel."""
    mine = await _my_table(session, player, day)
    if mine is not None:
        return DailyDuel(await tables.table_view(session=session, table=mine), created=False)
    played = await _played_table_id(session, player, day)
    if played is not None:
        raise Conflict(f"you played the daily duel of {day} already (table {played})",
                       code="daily_duel_played")
    band = band_of((await rating_of(session=session, player_id=player.id,
                                    suits=DAILY_SUITS)).rating)
    for table_id in await _waiting_tables(session, player, day, band):
        table = await session.get(DuelTable, table_id)  # fresh: a failed try rolled back
        if table is None:
            continue
        try:
            view = await tables.seat_player(session=session, table=table, player=player,
                                            invited=True)  # the matcher is the invitation
        except (Conflict, Forbidden):  # taken meanwhile, or a player who ignores me
            await session.rollback()
            if player in session:  # the rollback expired it: my own table reads it
                await session.refresh(player)
            continue
        return DailyDuel(view, created=False)
    return DailyDuel(await _open_table(session, player, day, band, ttl_seconds), created=True)


async def my_daily_duel(*, session: AsyncSession, player: Player, day: date) -> int | None:
    """The id of my daily-duel table of ``day`` (waiting, playing or played), if any."""
    mine = await _my_table(session, player, day)
    return mine.id if mine is not None else await _played_table_id(session, player, day)


async def _my_table(session: AsyncSession, player: Player, day: date) -> DuelTable | None:
    found = await session.scalars(
        select(DuelTable).join(Seat, Seat.table_id == DuelTable.id)
        .where(DuelTable.daily_date == day, DuelTable.status != "closed",
               Seat.player_id == player.id))
    for table in found:
        if table.status == "open" and tables.is_expired(table):
            continue  # a wait that ran out: as if never opened
        return table
    return None


async def _played_table_id(session: AsyncSession, player: Player, day: date) -> int | None:
    return await session.scalar(
        select(DuelTable.id).join(Match, Match.table_id == DuelTable.id)
        .join(Game, Game.match_id == Match.id)
        .where(DuelTable.daily_date == day, Game.player_id == player.id).limit(1))


async def _waiting_tables(session: AsyncSession, player: Player, day: date,
                          band: str) -> list[int]:
    found = await session.scalars(
        select(DuelTable.id)
        .where(DuelTable.daily_date == day, DuelTable.status == "open",
               DuelTable.level == band, DuelTable.owner_id != player.id,
               DuelTable.expires_at > utcnow())
        .order_by(DuelTable.created_at, DuelTable.id).limit(CANDIDATES))
    return list(found)


async def _open_table(session: AsyncSession, player: Player, day: date, band: str,
                      ttl_seconds: int) -> TableView:
    settings = tables.TableSettings(
        preset=DAILY_DUEL_PRESET, suits=DAILY_SUITS, time_limit_seconds=DAILY_DUEL_SECONDS,
        level=band, public=False, rated=False)
    ttl = min(ttl_seconds, _seconds_left(day, utcnow()))
    return await tables.create_table(session=session, owner=player, settings=settings,
                                     ttl_seconds=ttl, daily_date=day)


def _seconds_left(day: date, now: datetime) -> int:
    """Seconds from ``now`` to the end of ``day`` (UTC), at least 1."""
    end = datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)
    return max(1, int((end - now).total_seconds()))
