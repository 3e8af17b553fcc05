"""The lobby: open public tables a player may join, filtered and paged; my own tables."""

from dataclasses import dataclass

from sqlalchemy import Select, and_, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import DuelTable, Player, Seat, utcnow
from app.services.bands import ANY_LEVEL, band_of, check_level
from app.services.friends import ignore_stands_between
from app.services.paging import Page, check_paging, page_rows
from app.services.ratings import check_suits, ratings_of
from app.services.tables import TableView, table_views


@dataclass(frozen=True)
class LobbyFilter:
    suits: int | None = None
    level: str | None = None
    min_time_limit: int | None = None
    max_time_limit: int | None = None
    preset: str | None = None
    difficulty: str | None = None


def _joinable_by(viewer: Player, bands: dict[int, str]) -> Select[DuelTable]:
    now = utcnow()
    # Level restriction: "any", or the viewer's band for the table's suit count.
    level_ok = or_(DuelTable.level == ANY_LEVEL,
                   *(and_(DuelTable.suits == suits, DuelTable.level == band)
                     for suits, band in bands.items()))
    return select(DuelTable).where(
        DuelTable.status == "open",
        DuelTable.is_public.is_(True),
        or_(DuelTable.expires_at.is_(None), DuelTable.expires_at > now),
        ~exists().where(Seat.table_id == DuelTable.id, Seat.player_id == viewer.id),
        # Correlated to the listed table: only a player seated HERE, ignoring me or
        # ignored by me, hides it (ignores block both ways).
        ~exists().where(Seat.table_id == DuelTable.id,
                        ignore_stands_between(viewer.id, Seat.player_id)),
        level_ok,
    )


async def open_tables(
    *, session: AsyncSession, viewer: Player, filters: LobbyFilter, page: int, page_size: int
) -> Page[TableView]:
    check_paging(page, page_size)  # before any query
    ratings = await ratings_of(session=session, player_id=viewer.id)
    query = _joinable_by(viewer, {s: band_of(r.rating) for s, r in ratings.items()})
    if filters.suits is not None:
        query = query.where(DuelTable.suits == check_suits(filters.suits))
    if filters.level is not None:  # tables open to any level are open to that one too
        query = query.where(DuelTable.level.in_({check_level(filters.level), ANY_LEVEL}))
    if filters.preset is not None:
        query = query.where(DuelTable.preset == filters.preset)
    if filters.difficulty is not None:
        query = query.where(DuelTable.difficulty == filters.difficulty)
    if filters.min_time_limit is not None:
        query = query.where(DuelTable.time_limit_seconds >= filters.min_time_limit)
    if filters.max_time_limit is not None:
        query = query.where(DuelTable.time_limit_seconds <= filters.max_time_limit)
    rows, total = await page_rows(
        session, query.order_by(DuelTable.created_at.desc(), DuelTable.id.desc()),
        page=page, page_size=page_size)
    items = await table_views(session=session, tables=[table for (table,) in rows])
    return Page(items, total, page, page_size)


async def my_tables(*, session: AsyncSession, player: Player, page: int, page_size: int
                    ) -> Page[TableView]:
    """Tables I sit at that are not closed or expired, newest first: the way back to a
    game left by walking to the lobby (or another device)."""
    now = utcnow()
    query = (select(DuelTable).join(Seat, Seat.table_id == DuelTable.id)
             .where(Seat.player_id == player.id, DuelTable.status != "closed",
                    or_(DuelTable.expires_at.is_(None), DuelTable.expires_at > now))
             .order_by(DuelTable.created_at.desc(), DuelTable.id.desc()))
    rows, total = await page_rows(session, query, page=page, page_size=page_size)
    items = await table_views(session=session, tables=[table for (table,) in rows])
    return Page(items, total, page, page_size)
