"""Solo and daily games in the database: rows, the action log, ends (docs/solo-and-daily.md).

The action log (``solo_actions``) is the truth: a game is rebuilt as
``replay(deal(source_deal, rules), logged actions)``. The counters on ``solo_games``
are caches of it, written in the same transaction as each append.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.db.solo_models import SoloAction, SoloGame
from app.engine.daily import utc_day
from app.engine.record import Record
from app.engine.state import GameState
from app.errors import Conflict, Forbidden, NotFound
from app.rewards.points import EarnedPoints, points_breakdown
from app.rewards.solo import SoloOptions, SoloStart
from app.rooms import deal_forms
from app.rooms.seat_log import actions_of, replay_log
from app.rooms.store import Totals
from app.scoring.play import ScoredGame

GENERATOR_VERSION = 1
MAPPING_VERSION = 1
DAILY_WINDOW = timedelta(days=2)
"""A daily of day D may be won until the end of D + 1 (UTC)."""


class SoloGameOver(Conflict):
    code = "game_over"


class NotYourGame(Forbidden):
    code = "not_your_game"


class NoSuchGame(NotFound):
    code = "no_such_game"


def options_of(game: SoloGame) -> SoloOptions:
    return SoloOptions(game.suits, game.solvable_only, game.relaxed)


def start_state(game: SoloGame) -> GameState:
    """The game's starting position: its generator deal, rebuilt as every stored deal is
    (``deal_forms.start_state``, duels' too)."""
    return deal_forms.start_state(options_of(game).rules(), {"number": game.source_deal})


def daily_deadline(day: date) -> datetime:
    return datetime.combine(day + DAILY_WINDOW, time(0), tzinfo=UTC)


def breakdown_of(game: SoloGame) -> EarnedPoints | None:
    """The points of a won game, item by item (recomputed: the formula is pure)."""
    if game.status != "won" or game.elapsed_ms is None:
        return None
    return points_breakdown(options=options_of(game), elapsed_ms=game.elapsed_ms,
                            actions=game.actions_count, rescues=game.rescues)


async def get_game(*, session: AsyncSession, game_id: int, lock: bool = False) -> SoloGame:
    query = select(SoloGame).where(SoloGame.id == game_id)
    if lock:
        query = query.with_for_update()
    game = (await session.scalars(query)).one_or_none()
    if game is None:
        raise NoSuchGame(f"no solo game {game_id}")
    return game


async def owned_game(*, session: AsyncSession, game_id: int, player_id: int,
                     lock: bool = False) -> SoloGame:
    game = await get_game(session=session, game_id=game_id, lock=lock)
    if game.player_id != player_id:
        raise NotYourGame(f"solo game {game_id} is another player's")
    return game


async def visible_game(*, session: AsyncSession, game_id: int, viewer_id: int | None
                       ) -> SoloGame:
    """A game as a reader may see it: in progress only to its player (else not found)."""
    game = await get_game(session=session, game_id=game_id)
    if game.status == "playing" and game.player_id != viewer_id:
        raise NoSuchGame(f"no solo game {game_id}")
    return game


async def current_game(*, session: AsyncSession, player_id: int) -> SoloGame | None:
    """The player's solo game in progress (kind ``solo``), if any."""
    return (await session.scalars(select(SoloGame).where(
        SoloGame.player_id == player_id, SoloGame.kind == "solo",
        SoloGame.status == "playing"))).one_or_none()


async def logged_actions(*, session: AsyncSession, game_id: int) -> list[SoloAction]:
    return list(await session.scalars(
        select(SoloAction).where(SoloAction.game_id == game_id).order_by(SoloAction.seq)))


async def rebuild(*, session: AsyncSession, game: SoloGame) -> GameState:
    """The game's position from its start and its log."""
    return replay_log(start_state(game), await logged_actions(session=session,
                                                              game_id=game.id))


def new_game(*, player_id: int, start: SoloStart, kind: str, day: date | None,
             now: datetime) -> SoloGame:
    options = start.options
    return SoloGame(
        player_id=player_id, kind=kind, number=start.number, suits=options.suits,
        solvable_only=options.solvable_only, relaxed=options.relaxed,
        source_deal=start.source, generator_version=GENERATOR_VERSION,
        mapping_version=MAPPING_VERSION if options.solvable_only else None,
        difficulty=start.difficulty, daily_date=day, status="playing", created_at=now,
        actions_count=0, undos=0, hints=0, rescues=0, auto_completed=False, assisted=False,
        undo_to_winnable=0,
        score=score_of(start.state), elapsed_ms=None, points=None,
    )


def score_of(state: GameState) -> int:
    """The score shown during solo play: the solo rules' scheme (the presets score by
    ``windows``, a function of the position) through ``ScoredGame``, as duels score."""
    return ScoredGame.at(state).points


def end_game(game: SoloGame, *, status: str, at: datetime) -> None:
    """Mark ``game`` over; a win gets its points (the counters are final by now)."""
    game.status = status
    game.ended_at = at
    if game.started_at is not None:
        game.elapsed_ms = max(0, round((at - game.started_at).total_seconds() * 1000))
    if status == "won":
        breakdown = breakdown_of(game)
        assert breakdown is not None  # a won game was opened: it has a clock
        game.points = breakdown.total


def expire_if_due(game: SoloGame, *, now: datetime) -> bool:
    """End a daily game past its window as ``expired``; True when it did."""
    if game.kind != "daily" or game.status != "playing" or game.daily_date is None:
        return False
    deadline = daily_deadline(game.daily_date)
    if now < deadline:
        return False
    end_game(game, status="expired", at=deadline)
    return True


def append_action(*, session: AsyncSession, game: SoloGame, seq: int, action: dict[str, Any],
                  by: str, at: datetime, totals: Totals) -> None:
    """Log one legal action and bring the row's caches up to date (same transaction):
    ``totals``, the game's after it (the core's, the score by the solo scheme)."""
    session.add(SoloAction(game_id=game.id, seq=seq, action=action, by=by, at=at))
    game.actions_count = totals.actions
    if action["op"] == "undo":
        game.undos += 1
    game.score = totals.score


async def abandon_playing_solo(*, session: AsyncSession, player_id: int, now: datetime
                               ) -> SoloGame | None:
    """End my solo game in progress (a new one replaces it); returns it, if any."""
    found = await current_game(session=session, player_id=player_id)
    if found is not None:
        end_game(found, status="abandoned", at=now)
        await session.flush()
    return found


async def daily_of(*, session: AsyncSession, player_id: int, day: date) -> SoloGame | None:
    return (await session.scalars(select(SoloGame).where(
        SoloGame.player_id == player_id, SoloGame.daily_date == day))).one_or_none()


async def player_name(*, session: AsyncSession, player_id: int) -> str:
    name = await session.scalar(select(Player.name).where(Player.id == player_id))
    if name is None:
        raise NotFound(f"no player {player_id}", code="no_such_player")
    return name


def record_of(game: SoloGame, log: Sequence[SoloAction]) -> Record:
    if game.status == "playing":
        raise Conflict("the game is still in progress: its record comes once it is over",
                       code="game_in_progress")
    start = start_state(game)
    return Record(start.rules, start, actions_of(log), deal_number=game.source_deal)


@dataclass(frozen=True, slots=True)
class GamesPage:
    items: list[tuple[SoloGame, str]]
    total: int
    page: int
    page_size: int


async def player_games(
    *, session: AsyncSession, player_id: int, viewer_id: int | None, kind: str | None,
    suits: int | None, status: str | None, page: int, page_size: int,
) -> GamesPage:
    """A player's solo and daily games, newest first; games in progress to their player only."""
    name = await player_name(session=session, player_id=player_id)
    where = [SoloGame.player_id == player_id]
    if viewer_id != player_id:
        where.append(SoloGame.status != "playing")
    if kind is not None:
        where.append(SoloGame.kind == kind)
    if suits is not None:
        where.append(SoloGame.suits == suits)
    if status is not None:
        where.append(SoloGame.status == status)
    total = await session.scalar(select(func.count()).select_from(SoloGame).where(*where))
    rows = await session.scalars(
        select(SoloGame).where(*where).order_by(SoloGame.created_at.desc(), SoloGame.id.desc())
        .limit(page_size).offset((page - 1) * page_size))
    return GamesPage([(game, name) for game in rows], total or 0, page, page_size)


async def count_hint(*, session: AsyncSession, game_id: int) -> None:
    await session.execute(update(SoloGame).where(SoloGame.id == game_id)
                          .values(hints=SoloGame.hints + 1))


def today(now: datetime) -> date:
    return utc_day(now)


async def opened_in_progress(*, session: AsyncSession, player_id: int) -> list[int]:
    """My solo and daily games in progress that were opened (resynced on a new connection)."""
    return list(await session.scalars(select(SoloGame.id).where(
        SoloGame.player_id == player_id, SoloGame.status == "playing",
        SoloGame.started_at.is_not(None)).order_by(SoloGame.id)))
