"""Duel tables: settings, two seats, joining and leaving, and "new game" by agreement.

The first match starts the moment the second seat is taken; later matches start when
both seated players have asked for a new game after the last match finished.
"""

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as game_repo
from app.db.games import DealChoice
from app.db.models import DuelTable, Invite, Match, Player, Seat, utcnow
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.runtime.solver_worker import off_loop
from app.services.bands import check_level, level_allows
from app.services.deals import choose_deal, daily_choice
from app.services.friends import ignore_between_any
from app.services.ratings import check_suits, rating_of
from app.services.settled import MatchSettled, match_settled

PRESETS = ("duel", "classic")
TIME_LIMIT_MIN = 60
TIME_LIMIT_MAX = 4 * 3600
SEATS = (0, 1)
DIFFICULTIES = ("any", "easy", "medium", "hard")


@dataclass(frozen=True)
class TableSettings:
    preset: str = "duel"
    suits: int = 1
    time_limit_seconds: int = 900
    level: str = "any"
    public: bool = True
    rated: bool = True
    difficulty: str = "any"

    def check(self) -> "TableSettings":
        if self.difficulty not in DIFFICULTIES:
            raise InvalidInput(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not "
                               f"{self.difficulty!r}")
        if self.preset not in PRESETS:
            raise InvalidInput(f"preset must be one of {', '.join(PRESETS)}, not "
                               f"{self.preset!r}", code="bad_preset")
        check_suits(self.suits)
        if not TIME_LIMIT_MIN <= self.time_limit_seconds <= TIME_LIMIT_MAX:
            raise InvalidInput(
                f"time_limit_seconds must be {TIME_LIMIT_MIN} to {TIME_LIMIT_MAX}, "
                f"not {self.time_limit_seconds}", code="bad_time_limit")
        check_level(self.level)
        return self


@dataclass(frozen=True)
class SeatView:
    seat: int
    player_id: int
    name: str
    wants_new_game: bool


@dataclass(frozen=True)
class TableView:
    table: DuelTable
    owner_name: str
    seats: list[SeatView]
    match: Match | None


def is_expired(table: DuelTable, now: datetime | None = None) -> bool:
    return table.expires_at is not None and table.expires_at <= (now or utcnow())


async def seats_of(session: AsyncSession, table_id: int) -> list[Seat]:
    """The table's seats as the database has them now (never a stale cached copy)."""
    rows = await session.scalars(select(Seat).where(Seat.table_id == table_id)
                                 .order_by(Seat.seat)
                                 .execution_options(populate_existing=True))
    return list(rows)


async def lock_table(session: AsyncSession, table_id: int) -> None:
    """Serialise changes to one table's seats (row lock on PostgreSQL; SQLite serialises
    writers anyway, and seats are re-read after our own write)."""
    await session.execute(select(DuelTable).where(DuelTable.id == table_id)
                          .with_for_update().execution_options(populate_existing=True))


async def table_view(*, session: AsyncSession, table: DuelTable) -> TableView:
    return (await table_views(session=session, tables=[table]))[0]


async def table_views(*, session: AsyncSession, tables: list[DuelTable]) -> list[TableView]:
    """Views of many tables in three queries (the lobby pages through dozens)."""
    ids = [table.id for table in tables]
    if not ids:
        return []
    seats: dict[int, list[SeatView]] = {table_id: [] for table_id in ids}
    seat_rows = await session.execute(
        select(Seat, Player.name).join(Player, Player.id == Seat.player_id)
        .where(Seat.table_id.in_(ids)).order_by(Seat.table_id, Seat.seat)
        .execution_options(populate_existing=True)
    )
    for seat, name in seat_rows:
        seats[seat.table_id].append(SeatView(seat.seat, seat.player_id, name,
                                             seat.wants_new_game))
    owner_rows = await session.execute(
        select(Player.id, Player.name).where(Player.id.in_({t.owner_id for t in tables}))
    )
    owners = {player_id: name for player_id, name in owner_rows}
    latest = (select(Match.table_id, func.max(Match.ordinal).label("ordinal"))
              .where(Match.table_id.in_(ids)).group_by(Match.table_id).subquery())
    match_rows = await session.scalars(
        select(Match).join(latest, (Match.table_id == latest.c.table_id)
                           & (Match.ordinal == latest.c.ordinal))
    )
    matches = {match.table_id: match for match in match_rows}
    return [TableView(table, owners.get(table.owner_id, "?"), seats[table.id],
                      matches.get(table.id)) for table in tables]


async def create_table(
    *, session: AsyncSession, owner: Player, settings: TableSettings, ttl_seconds: int,
    daily_date: date | None = None, quick: bool = False, first_match: DealChoice | None = None,
) -> TableView:
    """A new table with ``owner`` at seat 0 (``daily_date``: a daily duel's; ``quick``: a
    quick duel's; ``first_match``: its first match starts at once on that deal, with the
    owner's game only — a quick duel started before its opponent is paired). Commits."""
    settings.check()
    now = utcnow()
    table = DuelTable(
        owner_id=owner.id, preset=settings.preset, suits=settings.suits,
        time_limit_seconds=settings.time_limit_seconds, level=settings.level,
        is_public=settings.public, rated=settings.rated, status="open",
        difficulty=settings.difficulty, created_at=now,
        expires_at=now + timedelta(seconds=ttl_seconds), daily_date=daily_date, quick=quick,
    )
    session.add(table)
    await session.flush()
    session.add(Seat(table_id=table.id, seat=0, player_id=owner.id))
    if first_match is not None:
        await game_repo.create_match(session, table=table, player_ids=[owner.id],
                                     choice=first_match)
    await session.commit()
    return await table_view(session=session, table=table)


async def _has_pending_invite(session: AsyncSession, table_id: int, player_id: int) -> bool:
    found = await session.scalar(
        select(Invite.id).where(Invite.table_id == table_id, Invite.invitee_id == player_id,
                                Invite.status == "pending", Invite.expires_at > utcnow())
        .limit(1)
    )
    return found is not None


async def can_see(*, session: AsyncSession, table: DuelTable, viewer: Player) -> bool:
    """Public tables are seen by all; private ones by their players and direct invitees."""
    seated = [seat.player_id for seat in await seats_of(session, table.id)]
    if viewer.id in seated:
        return True
    if table.is_public:
        return True
    if await ignore_between_any(session=session, player_id=viewer.id, of=seated):
        return False
    return await _has_pending_invite(session, table.id, viewer.id)


async def get_table(*, session: AsyncSession, table_id: int, viewer: Player) -> DuelTable:
    """The table if it exists and ``viewer`` may see it; not found either way otherwise."""
    table = await session.get(DuelTable, table_id)
    if table is None or not await can_see(session=session, table=table, viewer=viewer):
        raise NotFound(f"no table {table_id}", code="table_not_found")
    return table


async def _check_joinable(session: AsyncSession, table: DuelTable, player: Player,
                          seats: list[Seat], *, invited: bool) -> None:
    if table.status == "closed":
        raise Conflict("the table is closed", code="table_closed")
    if is_expired(table):
        raise Conflict("the table has expired", code="table_expired")
    if any(seat.player_id == player.id for seat in seats):
        raise Conflict("you already sit at this table", code="already_seated")
    if len(seats) >= len(SEATS):
        raise Conflict("both seats are taken", code="table_full")
    current = await game_repo.current_match(session, table_id=table.id)
    if current is not None and current.status == "playing":  # someone left during it
        raise Conflict("a match is still being played at this table: join when it ends",
                       code="match_in_progress")
    ignore = await ignore_between_any(session=session, player_id=player.id,
                                      of=[seat.player_id for seat in seats])
    if ignore == "ignored":
        raise Forbidden("a player at this table does not accept you", code="ignored")
    if ignore == "ignoring":
        raise Forbidden("you ignore a player at this table", code="ignoring")
    if invited:
        return  # an invitation lets you in whatever the table's visibility and level
    if not table.is_public:
        raise Forbidden("this table is private: you need an invitation", code="private_table")
    rating = await rating_of(session=session, player_id=player.id, suits=table.suits)
    if not level_allows(table.level, rating.rating):
        raise Forbidden(f"this table is for {table.level} players", code="level_mismatch")


async def deal_for(table: DuelTable) -> DealChoice:
    """The deal of ``table``'s next match (the solver may run: seconds on a busy machine)."""
    if table.daily_date is not None:  # a daily duel: that day's daily deal
        return await off_loop(daily_choice, table.daily_date)
    return await choose_deal(suits=table.suits, difficulty=table.difficulty)


async def _deal_ahead(table: DuelTable, *, filling: bool) -> DealChoice | None:
    """The next match's deal, chosen before this request writes anything when it is about
    to start a match (``filling``, as read before the lock). On SQLite a write transaction
    blocks every other writer, action log included, for as long as it stays open: the
    solver must not run inside one. Should the guess be wrong (someone else moved in
    between), `start_match` chooses under the lock, or the deal goes unused."""
    return await deal_for(table) if filling else None


async def _seated(session: AsyncSession, table: DuelTable) -> list[Seat]:
    """The seats as they are, without flushing the caller's pending changes (an accepted
    invitation): a flush would open the write transaction before the solver runs."""
    with session.no_autoflush:
        return await seats_of(session, table.id)


async def start_match(*, session: AsyncSession, table: DuelTable,
                      choice: DealChoice | None = None) -> Match:
    """A new match with a new deal (``choice``, else chosen now) for the two seated
    players (seat order). No commit."""
    seats = await seats_of(session, table.id)
    if len(seats) != len(SEATS):
        raise Conflict("a match needs two seated players", code="table_not_full")
    if choice is None:
        choice = await deal_for(table)
    for seat in seats:
        seat.wants_new_game = False
    return await game_repo.create_match(
        session, table=table, player_ids=[seat.player_id for seat in seats], choice=choice
    )


async def seat_player(*, session: AsyncSession, table: DuelTable, player: Player,
                      invited: bool = False) -> TableView:
    """Seat ``player``; starts the first match when the table fills. Commits."""
    choice = await _deal_ahead(table, filling=len(await _seated(session, table)) + 1 == len(SEATS))
    await lock_table(session, table.id)
    seats = await seats_of(session, table.id)
    await _check_joinable(session, table, player, seats, invited=invited)
    free = next(number for number in SEATS if number not in {s.seat for s in seats})
    session.add(Seat(table_id=table.id, seat=free, player_id=player.id))
    try:
        await session.flush()
    except IntegrityError:  # someone else took the seat at the same moment
        await session.rollback()
        raise Conflict("both seats are taken", code="table_full") from None
    if len(seats) + 1 == len(SEATS):
        table.status = "full"
        await start_match(session=session, table=table, choice=choice)
    await session.commit()
    return await table_view(session=session, table=table)


async def join_table(*, session: AsyncSession, table_id: int, player: Player) -> TableView:
    table = await get_table(session=session, table_id=table_id, viewer=player)
    return await seat_player(session=session, table=table, player=player)


async def _my_seat(session: AsyncSession, table: DuelTable, player: Player) -> Seat:
    seat = await session.scalar(select(Seat).where(Seat.table_id == table.id,
                                                   Seat.player_id == player.id))
    if seat is None:
        raise Forbidden("you do not sit at this table", code="not_seated")
    return seat


async def leave_table(*, session: AsyncSession, table_id: int, player: Player) -> TableView:
    """Free my seat; refused while my game of the current match is still to be played (or
    being played). A player whose game is over may leave while the other still plays
    (docs/api.md): the table then stays out of the lobby until that match is settled
    (:func:`reopen_after_match`), so nobody sits down at a table whose match is not over."""
    table = await get_table(session=session, table_id=table_id, viewer=player)
    await lock_table(session, table.id)
    seat = await _my_seat(session, table, player)
    match = await game_repo.current_match(session, table_id=table.id)
    playing = match is not None and match.status == "playing"
    if playing and await _my_game_goes_on(session, match, player):
        raise Conflict("your game of this match is not over: finish it first",
                       code="match_in_progress")
    if playing and table.quick and table.status == "open":
        # A quick duel whose second player is not paired yet (app/services/quick_duel.py):
        # leaving its page is not giving it up (DELETE /api/quick-duel does that); it
        # stays in My tables until it settles or lapses. Nothing changed: the lock ends.
        await session.commit()
        return await table_view(session=session, table=table)
    await session.delete(seat)
    await session.flush()
    remaining = await seats_of(session, table.id)
    for other in remaining:
        other.wants_new_game = False
    if remaining:
        table.status = "full" if playing else "open"
    else:
        table.status = "closed"
        table.closed_at = utcnow()
    await session.commit()
    return await table_view(session=session, table=table)


async def _my_game_goes_on(session: AsyncSession, match: Match | None, player: Player) -> bool:
    """Whether my game of ``match`` is still to be played or being played."""
    if match is None:
        return False
    games = await game_repo.games_of_match(session, match_id=match.id)
    return any(game.player_id == player.id and game.status == "playing" for game in games)


async def _table_of_match(session: AsyncSession, match_id: int) -> DuelTable | None:
    match = await session.get(Match, match_id)
    return None if match is None else await session.get(DuelTable, match.table_id)


async def reopen_after_match(event: MatchSettled, session: AsyncSession) -> None:
    """A match is settled at a table someone left during it: the table waits in the
    lobby for a new opponent again (a table nobody sits at stays closed)."""
    table = await _table_of_match(session, event.match_id)
    if table is None or table.status != "full":
        return
    if len(await seats_of(session, table.id)) < len(SEATS):
        table.status = "open"


match_settled.subscribe(reopen_after_match)


async def reopened_table(*, session: AsyncSession, match_id: int) -> TableView | None:
    """The table of ``match_id`` if it waits in the lobby again now that the match is
    settled (see :func:`reopen_after_match`); the live layer tells the lobby."""
    table = await _table_of_match(session, match_id)
    if table is None or table.status != "open":
        return None
    return await table_view(session=session, table=table)


async def agree_new_game(*, session: AsyncSession, table_id: int, player: Player) -> TableView:
    """Ask for a new game; when both seated players have asked, a new match starts."""
    table = await get_table(session=session, table_id=table_id, viewer=player)
    others = [s for s in await _seated(session, table) if s.player_id != player.id]
    choice = await _deal_ahead(table, filling=table.daily_date is None and len(others) == 1
                               and others[0].wants_new_game)
    await lock_table(session, table.id)
    seat = await _my_seat(session, table, player)
    seats = await seats_of(session, table.id)
    if len(seats) != len(SEATS):
        raise Conflict("wait for an opponent to sit down", code="table_not_full")
    match = await game_repo.current_match(session, table_id=table.id)
    if match is not None and match.status == "playing":
        raise Conflict("the current match is not over yet", code="match_in_progress")
    if is_expired(table):
        raise Conflict("the table has expired", code="table_expired")
    if table.daily_date is not None:
        raise Conflict("a daily duel is one match: its deal is the day's",
                       code="daily_duel_once")
    seat.wants_new_game = True
    await session.flush()
    # Re-read after our write: the other player may have agreed a moment ago.
    if all(s.wants_new_game for s in await seats_of(session, table.id)):
        await start_match(session=session, table=table, choice=choice)
    await session.commit()
    return await table_view(session=session, table=table)
