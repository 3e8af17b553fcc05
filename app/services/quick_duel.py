"""Quick duel: one request that pairs me with a waiting player of my band and suit count.

A quick-duel table is a duel table (``app/services/tables.py``) with ``quick`` set:
private (the quick matcher seats players, as an invitation would; never in the lobby),
rated, ``duel`` rules, 10 minutes, at my band's level for that suit count
(``app/services/bands.py``). Asking seats me at the oldest waiting quick table of my band
and suit count — the match starts at once on a deal chosen as for any table (solvable
for 1 and 2 suits) — or, when nobody waits, opens my table, which waits for the next
player who asks for the same. The table expires ``deadline_seconds`` after it opened;
at pairing its expiry moves to ``deadline_seconds`` later: a player who asked, went away
and was paired later has that long to open their game (then "did not start", the
no-show rule), and the match settles when both games are over.
"""

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import DuelTable, Match, Player, Seat, utcnow
from app.errors import Conflict, Forbidden
from app.services import tables
from app.services.bands import band_of
from app.services.ratings import check_suits, rating_of
from app.services.tables import TableView

QUICK_PRESET = "duel"
QUICK_SECONDS = 10 * 60
CANDIDATES = 5
"""Waiting tables tried in turn when another player takes the first at the same moment."""


@dataclass(frozen=True)
class QuickDuel:
    view: TableView
    paired: bool  # seated at a waiting player's table: the match has started
    created: bool = False  # a new table, waiting for the next player


async def take_quick_duel(*, session: AsyncSession, player: Player, suits: int,
                          deadline_seconds: int) -> QuickDuel:
    """A seat at the oldest waiting quick table of my band and ``suits`` (paired: the match
    starts), else my own waiting table (asking again returns it; asking for another suit
    count gives it up). Commits."""
    check_suits(suits)
    playing = await _my_quick_match(session, player)
    if playing is not None:  # asking again while my quick duel goes on: that one
        return QuickDuel(await tables.table_view(session=session, table=playing), paired=True)
    mine = await my_waiting_table(session=session, player=player)
    if mine is not None:
        if mine.suits == suits:
            return QuickDuel(await tables.table_view(session=session, table=mine), paired=False)
        await tables.leave_table(session=session, table_id=mine.id, player=player)
    band = band_of((await rating_of(session=session, player_id=player.id, suits=suits)).rating)
    for table_id in await _waiting_tables(session, player, suits, band):
        table = await session.get(DuelTable, table_id)  # fresh: a failed try rolled back
        if table is None:
            continue
        try:
            await tables.seat_player(session=session, table=table, player=player,
                                     invited=True)  # the matcher is the invitation
        except (Conflict, Forbidden):  # taken meanwhile, or a player who ignores me
            await session.rollback()
            continue
        # From now on, whoever has not opened their game has the deadline to do so.
        table.expires_at = utcnow() + timedelta(seconds=deadline_seconds)
        await session.commit()
        return QuickDuel(await tables.table_view(session=session, table=table), paired=True)
    settings = tables.TableSettings(preset=QUICK_PRESET, suits=suits,
                                    time_limit_seconds=QUICK_SECONDS, level=band,
                                    public=False, rated=True)
    view = await tables.create_table(session=session, owner=player, settings=settings,
                                     ttl_seconds=deadline_seconds, quick=True)
    return QuickDuel(view, paired=False, created=True)


async def looking(*, session: AsyncSession) -> int:
    """How many players wait for a quick duel now (one waiting table each)."""
    return await session.scalar(
        select(func.count(DuelTable.id))
        .where(DuelTable.quick.is_(True), DuelTable.status == "open",
               DuelTable.expires_at > utcnow())) or 0


async def my_waiting_table(*, session: AsyncSession, player: Player) -> DuelTable | None:
    """My quick table that still waits for an opponent, if any."""
    return await session.scalar(
        select(DuelTable).join(Seat, Seat.table_id == DuelTable.id)
        .where(DuelTable.quick.is_(True), DuelTable.status == "open",
               DuelTable.expires_at > utcnow(), Seat.player_id == player.id).limit(1))


async def _my_quick_match(session: AsyncSession, player: Player) -> DuelTable | None:
    """My quick table whose match is still being played, if any."""
    return await session.scalar(
        select(DuelTable).join(Seat, Seat.table_id == DuelTable.id)
        .join(Match, Match.table_id == DuelTable.id)
        .where(DuelTable.quick.is_(True), DuelTable.status == "full",
               Match.status == "playing", Seat.player_id == player.id).limit(1))


async def _waiting_tables(session: AsyncSession, player: Player, suits: int,
                          band: str) -> list[int]:
    found = await session.scalars(
        select(DuelTable.id)
        .where(DuelTable.quick.is_(True), DuelTable.status == "open",
               DuelTable.suits == suits, DuelTable.level == band,
               DuelTable.owner_id != player.id, DuelTable.expires_at > utcnow())
        .order_by(DuelTable.created_at, DuelTable.id).limit(CANDIDATES))
    return list(found)
