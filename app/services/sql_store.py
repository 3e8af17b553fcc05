"""The duel store on the database (``app.db``): every call is one committed transaction.

Timestamps are UTC datetimes in the database and POSIX seconds in the duel service.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, and_, exists, func, or_, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import games as repo
from app.db.models import DuelTable, Game, Match, Player, utc_from_seconds, utcnow
from app.rooms.store import (
    FINISHED,
    SETTLE_GRACE_SECONDS,
    SeqTaken,
    Settled,
    StoredAction,
    StoredGame,
    StoredMatch,
    StoreError,
    Totals,
)
from app.rooms.winner import PlayerOutcome
from app.services.deals import stored_deal
from app.services.results import finish_match as settle_match
from app.services.settled import take_notifications

T = TypeVar("T")
log = logging.getLogger(__name__)


@contextmanager
def _storage_errors() -> Iterator[None]:
    """Database trouble becomes a StoreError: the duel service then changes nothing."""
    try:
        yield
    except SQLAlchemyError as error:
        raise StoreError(f"database error: {type(error).__name__}") from error


READ_RETRY_DELAYS = (0.05, 0.25)
"""A read that failed is tried again after these pauses: a connection cut under it (a
terminated backend, a failover) is dropped by the pool and the next one is fresh. Reads
only: they change nothing, so a second try is always safe."""


async def _read(read: Callable[[], Awaitable[T]]) -> T:
    for pause in READ_RETRY_DELAYS:
        try:
            return await read()
        except SQLAlchemyError as error:
            log.warning("database read failed (%s); trying again", type(error).__name__)
            await asyncio.sleep(pause)
    with _storage_errors():
        return await read()


def _seconds(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp()


class SqlStore:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], *,
                 start_window_s: float | None = None) -> None:
        self._sessions = sessions
        # The no-show rule: a game not opened this long after its match was made ends as
        # "did not start" (None: only the table's expiry ends it).
        self._start_window_s = start_window_s

    async def load_match(self, match_id: int) -> StoredMatch | None:
        return await _read(lambda: self._load_match(match_id))

    async def _load_match(self, match_id: int) -> StoredMatch | None:
        # Three round trips whatever the match: the match with its table, its games with
        # their players' names, every game's log. (It was 2 + 2 per game, one at a time:
        # the bulk of the CPU a worker spends taking over a crashed worker's matches.)
        async with self._sessions() as session:
            found = (await session.execute(
                select(Match, DuelTable).outerjoin(DuelTable, DuelTable.id == Match.table_id)
                .where(Match.id == match_id))).first()
            if found is None:
                return None
            match, table = found
            seated = (await session.execute(
                select(Game, Player.name).outerjoin(Player, Player.id == Game.player_id)
                .where(Game.match_id == match_id).order_by(Game.seat))).all()
            logs = await repo.actions_of_games(session, game_ids=[g.id for g, _ in seated])
            games = [StoredGame(
                game_id=game.id,
                player_id=game.player_id,
                name=name,
                started_at=_seconds(game.started_at),
                ended_at=_seconds(game.ended_at),
                end_reason=None if game.status == "playing" else game.status,
                actions=[StoredAction(r.seq, r.action, r.at.timestamp()) for r in logs[game.id]],
            ) for game, name in seated]
            return StoredMatch(
                match_id=match.id,
                rules={"preset": match.preset, "suits": match.suits},
                time_limit_s=float(match.time_limit_seconds),
                games=games,
                deal=stored_deal(match),
                finished=match.status != "playing",
                winner_id=match.winner_id,
                expires_at=_seconds(table.expires_at) if table is not None else None,
                # A quick duel's unopened game has until the table's expiry, the
                # quick-duel deadline set at pairing (app/services/quick_duel.py).
                start_by=(None if self._start_window_s is None or (table and table.quick)
                          else match.created_at.timestamp() + self._start_window_s),
                awaiting=len(games) == 1 and table is not None and _still_pairing(table),
            )

    async def set_deal(self, match_id: int, deal: dict[str, Any]) -> dict[str, Any]:
        """Store ``deal`` unless the match has one (every match created by the table
        service does), and return the one stored: the port's contract, kept for real."""
        with _storage_errors():
            async with self._sessions() as session, session.begin():
                match = await session.get(Match, match_id, with_for_update=True)
                if match is None:
                    raise StoreError(f"no match {match_id}")
                if match.deal_number is None and match.layout is None:
                    match.deal_number = deal.get("number")
                    match.generator_version = deal.get("generator")
                    match.layout = deal.get("layout")
                    match.difficulty = deal.get("difficulty")
                    play = deal.get("play") or {}
                    match.play_number = play.get("number")
                    match.play_solvable_only = play.get("solvable_only")
                return stored_deal(match)

    async def start_game(self, game_id: int, at: float) -> None:
        with _storage_errors():
            await self._start_game(game_id, at)

    async def _start_game(self, game_id: int, at: float) -> None:
        async with self._sessions() as session, session.begin():
            game = await session.get(Game, game_id)
            if game is None:
                raise StoreError(f"no game {game_id}")
            await repo.start_game(session, game=game, at=utc_from_seconds(at))

    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], at: float, progress: Totals,
        *, then: Callable[[], None] | None = None,
    ) -> None:
        try:
            with _storage_errors():
                await self._append_action(game_id, seq, action, at, progress)
        except repo.DuplicateActionError as error:
            raise SeqTaken(str(error)) from None
        if then is not None:
            then()

    async def _append_action(
        self, game_id: int, seq: int, action: dict[str, Any], at: float, progress: Totals
    ) -> None:
        async with self._sessions() as session, session.begin():
            # The totals go on the row; the games row gets them when the game ends.
            await repo.append_action(session, game_id=game_id, seq=seq, action=action,
                                     at=utc_from_seconds(at), progress=progress)

    async def game_head(self, game_id: int) -> tuple[int, bool]:
        with _storage_errors():
            async with self._sessions() as session:
                head = await repo.game_head(session, game_id=game_id)
        if head is None:
            raise StoreError(f"no game {game_id}")
        return head

    async def end_game(self, game_id: int, reason: str, at: float, progress: Totals) -> None:
        with _storage_errors():
            await self._end_game(game_id, reason, at, progress)

    async def _end_game(self, game_id: int, reason: str, at: float, progress: Totals) -> None:
        async with self._sessions() as session, session.begin():
            # Locked: two processes ending the same game (time-out, sweeper) record it once.
            game = await session.get(Game, game_id, with_for_update=True)
            if game is None:
                raise StoreError(f"no game {game_id}")
            if game.status != "playing":
                if reason == FINISHED:
                    # Only a player's finish ends a game so, once: a second one comes from
                    # a copy that missed the first (its process died before its news
                    # left). The log decides, as for a seq taken.
                    raise SeqTaken(f"game {game_id} is over already ({game.status})")
                return  # already recorded (a restart finishing what was half done)
            await repo.finish_game(session, game=game, status=reason, progress=progress,
                                   at=utc_from_seconds(at))

    async def finish_match(self, match_id: int, outcomes: list[PlayerOutcome]) -> Settled:
        # The results service is the one authority on winner and ratings (it recomputes
        # the duel score from the log); the live layer only reports what it decided.
        async with self._sessions() as session:
            result = await settle_match(session=session, match_id=match_id)
            notices = tuple(take_notifications(session))
        return Settled(
            result.match.winner_id,
            {game.player_id: (game.rating_before, game.rating_after) for game in result.games},
            notices,
        )

    async def unfinished_match_ids(self, player_id: int | None = None) -> list[int]:
        started = exists().where(Game.match_id == Match.id, Game.started_at.is_not(None))
        query = select(Match.id).where(Match.status == "playing", started)
        if player_id is not None:
            seated = exists().where(Game.match_id == Match.id, Game.player_id == player_id)
            query = query.where(seated)

        async def read() -> list[int]:
            async with self._sessions() as session:
                return list(await session.scalars(query.order_by(Match.id)))

        return await _read(read)

    async def overdue_match_ids(self, now: float, limit: int = 100) -> list[int]:
        moment = utc_from_seconds(now)
        async with self._sessions() as session:
            deadline_passed = _deadline_passed(session.get_bind().dialect.name, moment)
            opened_and_late = exists().where(
                Game.match_id == Match.id, Game.status == "playing",
                Game.started_at.is_not(None), deadline_passed,
            )
            unopened = exists().where(
                Game.match_id == Match.id, Game.status == "playing", Game.started_at.is_(None)
            )
            start_over: ColumnElement[bool] = exists().where(
                DuelTable.id == Match.table_id, DuelTable.expires_at <= moment
            )
            if self._start_window_s is not None:  # or the start window is over (not
                # a quick duel's: its table's expiry is its deadline)
                ordinary = exists().where(DuelTable.id == Match.table_id,
                                          DuelTable.quick.is_(False))
                start_over = or_(start_over, and_(ordinary, Match.created_at <= utc_from_seconds(
                    now - self._start_window_s)))
            # Both games over for a while, the match still not settled: settling failed
            # (not a quick duel whose second player may still be paired: it waits).
            any_game = and_(exists().where(Game.match_id == Match.id), ~exists().where(
                DuelTable.id == Match.table_id, DuelTable.quick.is_(True),
                DuelTable.status == "open", DuelTable.expires_at > moment))
            still_playing = exists().where(Game.match_id == Match.id, Game.status == "playing")
            ended_lately = exists().where(
                Game.match_id == Match.id,
                Game.ended_at > utc_from_seconds(now - SETTLE_GRACE_SECONDS),
            )
            query = (
                select(Match.id)
                .where(Match.status == "playing",
                       or_(opened_and_late, and_(unopened, start_over),
                           and_(any_game, ~still_playing, ~ended_lately)))
                .order_by(Match.id).limit(limit)
            )
            with _storage_errors():
                return list(await session.scalars(query))


def _still_pairing(table: DuelTable) -> bool:
    """A quick table that waits for the next player who asks (its match started at once,
    app/services/quick_duel.py): its one game over does not end the match yet."""
    return (table.quick and table.status == "open" and table.expires_at is not None
            and table.expires_at > utcnow())


def _deadline_passed(dialect: str, moment: datetime) -> ColumnElement[bool]:
    """games.started_at + matches.time_limit_seconds <= moment, in the database's terms."""
    if dialect == "sqlite":  # datetimes are text there; julianday counts days
        started = func.julianday(Game.started_at)
        return started + Match.time_limit_seconds / 86400.0 <= func.julianday(
            moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f"))
    return Game.started_at + func.make_interval(
        0, 0, 0, 0, 0, 0, Match.time_limit_seconds) <= moment
