"""Quick duel: one request, and my duel starts at once — paired with a waiting player of
my band and suit count, or on my own until the next one asks.

A quick-duel table is a duel table (``app/services/tables.py``) with ``quick`` set:
private (the quick matcher seats players, as an invitation would; never in the lobby),
rated, ``duel`` rules, 10 minutes, at my band's level for that suit count
(``app/services/bands.py``). Asking seats me into the match of the oldest waiting quick
table of my band and suit count (its first player has played or plays its deal now);
when nobody waits, my table opens with its match already made — a deal chosen as for
any table (solvable for 1 and 2 suits), my game only — and I play at once; the next
player of my band who asks for the same is paired into that match, on that deal. The
table waits ``deadline_seconds`` from my request; at pairing its expiry moves to
``deadline_seconds`` later (the second player's time to open their game, then "did not
start", the no-show rule), and the match settles when both games are over. Nobody
paired in time: the request lapses, and once my game is over the match ends ``aborted``
— no opponent, no winner, no rating change (``app.services.results``).
"""

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import ColumnElement, and_, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as game_repo
from app.db.models import DuelTable, Game, Match, Player, Seat, utcnow
from app.errors import Conflict, Forbidden
from app.services import tables
from app.services.bands import band_of
from app.services.deals import choose_deal
from app.services.friends import ignore_between_any
from app.services.ratings import check_suits, rating_of
from app.services.tables import TableView

QUICK_PRESET = "duel"
QUICK_SECONDS = 10 * 60
CANDIDATES = 5
"""Waiting tables tried in turn when another player takes the first at the same moment."""


@dataclass(frozen=True)
class QuickDuel:
    view: TableView
    paired: bool  # seated into a waiting player's match: both players are known
    created: bool = False  # a new table: my game starts now, the opponent comes later


async def take_quick_duel(*, session: AsyncSession, player: Player, suits: int,
                          deadline_seconds: int) -> QuickDuel:
    """A seat in the match of the oldest waiting quick table of my band and ``suits``
    (paired), else a new quick table whose match starts at once with my game only. While
    my game of a quick duel is still to be played or being played, asking again returns
    that one (whatever ``suits``). Commits."""
    check_suits(suits)
    playing = await _my_quick_game(session, player)
    if playing is not None:
        view = await tables.table_view(session=session, table=playing)
        return QuickDuel(view, paired=len(view.seats) == len(tables.SEATS))
    band = band_of((await rating_of(session=session, player_id=player.id, suits=suits)).rating)
    for table_id in await _waiting_tables(session, player, suits, band):
        try:
            table = await _pair(session, table_id, player, deadline_seconds)
        except (Conflict, Forbidden):  # taken meanwhile, or a player who ignores me
            await session.rollback()
            if player in session:  # the rollback expired it: my own table reads it
                await session.refresh(player)
            continue
        return QuickDuel(await tables.table_view(session=session, table=table), paired=True)
    # Nobody waits: my match now, on a deal chosen before anything is written (the solver
    # must not run inside a write transaction, ``tables._deal_ahead``).
    choice = await choose_deal(suits=suits)
    settings = tables.TableSettings(preset=QUICK_PRESET, suits=suits,
                                    time_limit_seconds=QUICK_SECONDS, level=band,
                                    public=False, rated=True)
    view = await tables.create_table(session=session, owner=player, settings=settings,
                                     ttl_seconds=deadline_seconds, quick=True,
                                     first_match=choice)
    return QuickDuel(view, paired=False, created=True)


async def _pair(session: AsyncSession, table_id: int, player: Player,
                deadline_seconds: int) -> DuelTable:
    """Seat ``player`` into the waiting quick table's match (a second game on its deal);
    from now on whoever has not opened their game has the deadline to do so. Commits."""
    await tables.lock_table(session, table_id)
    table = await session.get(DuelTable, table_id, populate_existing=True)
    if table is None:
        raise Conflict("the table is gone", code="table_closed")
    match = await game_repo.current_match(session, table_id=table.id)
    if match is None:  # a waiting table from before quick duels started at once
        await tables.seat_player(session=session, table=table, player=player, invited=True)
    else:
        seats = await tables.seats_of(session, table.id)
        games = await game_repo.games_of_match(session, match_id=match.id)
        if (table.status != "open" or tables.is_expired(table) or len(seats) != 1
                or match.status != "playing" or len(games) != 1
                or seats[0].player_id == player.id):
            raise Conflict("that quick duel is taken", code="table_full")
        if await ignore_between_any(session=session, player_id=player.id,
                                    of=[seats[0].player_id]):
            raise Forbidden("a player at this table does not accept you", code="ignored")
        session.add(Seat(table_id=table.id, seat=1, player_id=player.id))
        session.add(Game(match_id=match.id, player_id=player.id, seat=1, status="playing"))
        try:
            await session.flush()
        except IntegrityError:  # another player took the seat at the same moment
            await session.rollback()
            raise Conflict("that quick duel is taken", code="table_full") from None
        table.status = "full"
    table.expires_at = utcnow() + timedelta(seconds=deadline_seconds)
    await session.commit()
    return table


def _waits() -> ColumnElement[bool]:
    """A quick table waiting for its second player: open, not expired, and none of its
    matches over. A quick duel played out, whose second player then left (a rematch
    declined), is open again with one player seated: that is nobody's request."""
    over = select(Match.id).where(Match.table_id == DuelTable.id, Match.status != "playing")
    return and_(DuelTable.quick.is_(True), DuelTable.status == "open",
                DuelTable.expires_at > utcnow(), ~over.exists())


async def looking(*, session: AsyncSession) -> int:
    """How many players wait for a quick duel now (the owners of waiting quick tables)."""
    return await session.scalar(
        select(func.count(DuelTable.owner_id.distinct())).where(_waits())) or 0


async def stop_looking(*, session: AsyncSession, player: Player) -> list[int]:
    """My waiting quick tables stop waiting: a request whose match has started lapses now
    (the match ends ``aborted`` once my game is over); an older table without a match is
    left (it closes). Returns the ids of the matches that lapsed. Commits."""
    lapsed = []
    while (table := await my_waiting_table(session=session, player=player)) is not None:
        match = await game_repo.current_match(session, table_id=table.id)
        if match is None:
            await tables.leave_table(session=session, table_id=table.id, player=player)
            continue
        table.expires_at = utcnow()
        await session.commit()
        lapsed.append(match.id)
    return lapsed


async def my_waiting_table(*, session: AsyncSession, player: Player) -> DuelTable | None:
    """My quick table that still waits for an opponent, if any."""
    return await session.scalar(
        select(DuelTable).join(Seat, Seat.table_id == DuelTable.id)
        .where(_waits(), Seat.player_id == player.id).limit(1))


async def _my_quick_game(session: AsyncSession, player: Player) -> DuelTable | None:
    """The quick table where my game is still to be played or being played, if any."""
    return await session.scalar(
        select(DuelTable).join(Match, Match.table_id == DuelTable.id)
        .join(Game, Game.match_id == Match.id)
        .where(DuelTable.quick.is_(True), Match.status == "playing",
               Game.player_id == player.id, Game.status == "playing")
        .order_by(Match.id.desc()).limit(1))


async def _waiting_tables(session: AsyncSession, player: Player, suits: int,
                          band: str) -> list[int]:
    found = await session.scalars(
        select(DuelTable.id)
        .where(_waits(), DuelTable.suits == suits, DuelTable.level == band,
               DuelTable.owner_id != player.id)
        .order_by(DuelTable.created_at, DuelTable.id).limit(CANDIDATES))
    return list(found)
