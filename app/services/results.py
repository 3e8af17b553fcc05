"""Match results: the winner, rating changes, history, and game records.

A duel is won by the higher ``duel`` score, then by the shorter time used; equal in
both is a draw. The ``duel`` score is recomputed from the action log (the truth), so it
also decides matches played under ``classic`` rules, whose shown score is ``windows``.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db import games as game_repo
from app.db.games import LoadedGame
from app.db.models import DuelTable, Game, Match, Player, utcnow
from app.engine.rules import with_options
from app.errors import Conflict, InvalidInput, NotFound
from app.rooms.seat_log import actions_of
from app.rooms.winner import NO_SHOW, NOT_STARTED, GameStatus, PlayerOutcome, decide_winner
from app.scoring.play import ScoredGame
from app.services import subscribers  # noqa: F401  (every listener subscribed before a publish)
from app.services.deals import (
    game_record,
    match_rules,
    play_this_deal,
    start_state,
)
from app.services.paging import Page, check_paging
from app.services.players import get_player
from app.services.settled import MatchSettled, SeatResult, match_settled

LAPSED = "aborted"
"""``Match.status`` of a quick duel nobody was paired into in time: ended without an
opponent (the schema's ``aborted``, unused until then)."""


class GameResult(BaseModel):
    """One game of a match as its result shows it; the API adds the rating change."""

    model_config = ConfigDict(frozen=True)

    game_id: int
    player_id: int
    name: str
    seat: int
    status: GameStatus
    score: int
    actions: int
    time_used_ms: int
    started_at: datetime | None
    ended_at: datetime | None
    rating_before: float | None
    rating_after: float | None


@dataclass(frozen=True)
class MatchReport:
    match: Match
    games: list[GameResult]
    over: bool  # both games over: the deal may be revealed

    @property
    def deal_number(self) -> int | None:
        return self.match.deal_number if self.over else None

    @property
    def suits(self) -> int | None:
        return self.match.suits if self.over else None

    @property
    def play(self) -> dict[str, Any] | None:
        """The solo options that deal these cards again; a seed, so only once over."""
        return play_this_deal(self.match) if self.over else None


def over(games: list[Game]) -> bool:
    return bool(games) and all(game.status != "playing" for game in games)


def match_over(match: Match, games: list[Game]) -> bool:
    """Both games over — or a quick duel's one game once the match ended without an
    opponent (``aborted``): only then may the deal be revealed. A quick duel's one game
    over while its second player may still be paired reveals nothing (they would play
    the same deal)."""
    return over(games) and (len(games) == 2 or match.status == LAPSED)


def shown_status(game: Game) -> GameStatus:
    """The game's status as every answer says it (the live layer's words, ``Seat.status``):
    a game not opened yet is ``not_started``; one never opened that timed out is stored as
    ``timed_out`` and means its player did not start (the no-show rule)."""
    if game.started_at is None and game.status in ("playing", "timed_out"):
        return NOT_STARTED if game.status == "playing" else NO_SHOW
    return cast(GameStatus, game.status)


async def duel_points(session: AsyncSession, match: Match, game: Game) -> int:
    """The game's ``duel`` score, replayed from its action log."""
    rules = with_options(match_rules(match), scoring="duel")
    scored = ScoredGame.start(start_state(match, rules))
    rows = await game_repo.actions_of_game(session, game_id=game.id)
    for action in actions_of(rows):
        scored, _ = scored.play(action)
    return scored.points


async def finish_match(*, session: AsyncSession, match_id: int) -> MatchReport:
    """Settle a match whose two games are over: winner, status, and ``match_settled``
    published (ratings listen to it) in the same transaction. Commits.

    Safe to call twice, even at the same moment: the first caller claims the match with
    a conditional UPDATE (playing → finished); any other caller finds it claimed and gets
    the result as it is, nothing published again.
    """
    match = await session.scalar(
        select(Match).where(Match.id == match_id)
        .execution_options(populate_existing=True)  # fresh status, not a cached one
    )
    if match is None:
        raise NotFound(f"no match {match_id}", code="match_not_found")
    if match.status == "playing":
        games = await game_repo.games_of_match(session, match_id=match.id)
        if len(games) == 1 and over(games):
            await _lapse(session, match, games[0])
            return await match_result(session=session, match_id=match_id)
        if not over(games) or len(games) != 2:
            raise Conflict("both games must be over first", code="match_not_over")
        claim = await session.execute(
            update(Match).where(Match.id == match.id, Match.status == "playing")
            .values(status="finished")
        )
        if getattr(claim, "rowcount", 0) == 1:
            settled = await _settle(session, match, games)
            await match_settled.publish(settled, session=session)  # commits
        else:
            await session.rollback()
    return await match_result(session=session, match_id=match_id)


async def _lapse(session: AsyncSession, match: Match, game: Game) -> None:
    """A quick duel nobody was paired into before its deadline (docs/api.md, "Quick
    duel"): once its one game is over it ends ``aborted`` — no opponent, no winner, no
    rating change, not in the player's past (``match_settled`` is not published). Its
    table closes. Refused while the table may still pair someone. Commits."""
    table = await session.scalar(select(DuelTable).where(DuelTable.id == match.table_id)
                                 .with_for_update().execution_options(populate_existing=True))
    if table is not None and table.status == "open" and table.expires_at is not None \
            and table.expires_at > utcnow():
        raise Conflict("the quick duel still waits for its second player",
                       code="match_not_over")
    if len(await game_repo.games_of_match(session, match_id=match.id)) != 1:
        raise Conflict("both games must be over first", code="match_not_over")  # paired
    claim = await session.execute(
        update(Match).where(Match.id == match.id, Match.status == "playing")
        .values(status=LAPSED, winner_id=None, ended_at=game.ended_at or utcnow()))
    if getattr(claim, "rowcount", 0) == 1 and table is not None and table.status == "open":
        table.status, table.closed_at = "closed", utcnow()
    await session.commit()
    await session.refresh(match)


async def _settle(session: AsyncSession, match: Match, games: list[Game]) -> MatchSettled:
    seats = tuple([
        SeatResult(game.player_id, game.id, game.seat, shown_status(game),
                   await duel_points(session, match, game), game.time_used_ms)
        for game in games
    ])
    match.winner_id = decide_winner([
        PlayerOutcome(seat.player_id, seat.duel_points, seat.time_used_ms / 1000, seat.status)
        for seat in seats
    ])
    match.status = "finished"
    ended = [game.ended_at for game in games if game.ended_at is not None]
    match.ended_at = max(ended) if ended else utcnow()
    return MatchSettled(match.id, match.rated, match.suits, match.winner_id, seats,
                        match.ended_at)


async def match_result(*, session: AsyncSession, match_id: int) -> MatchReport:
    match = await session.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {match_id}", code="match_not_found")
    rows = await session.execute(
        select(Game, Player.name).join(Player, Player.id == Game.player_id)
        .where(Game.match_id == match.id).order_by(Game.seat)
    )
    pairs = list(rows)
    # A game being played has its totals on its last logged action, not on its row.
    totals = [await game_repo.live_totals(session, g) for g, _ in pairs]
    results = [
        GameResult(game_id=g.id, player_id=g.player_id, name=name, seat=g.seat,
                   status=shown_status(g), score=now.score, actions=now.actions,
                   time_used_ms=now.time_used_ms, started_at=g.started_at,
                   ended_at=g.ended_at, rating_before=g.rating_before,
                   rating_after=g.rating_after)
        for (g, name), now in zip(pairs, totals, strict=True)
    ]
    return MatchReport(match, results, match_over(match, [g for g, _ in pairs]))


async def start_deadline(*, session: AsyncSession, result: MatchReport,
                         window_s: float) -> datetime | None:
    """While a game of the match is not opened yet: when it ends as "did not start" —
    the start window's end (``window_s`` after the match was made; 0: no window) or the
    table's expiry, whichever comes first (a quick duel: its table's expiry only), as the
    live layer counts it (``Match.start_deadline``). A player at the ready screen is told it."""
    if result.over or not any(game.status == NOT_STARTED for game in result.games):
        return None
    table = await session.get(DuelTable, result.match.table_id)
    quick = table is not None and table.quick  # its table's expiry is its only deadline
    ends = [result.match.created_at + timedelta(seconds=window_s)] if window_s and not quick else []
    if table is not None and table.expires_at is not None:
        ends.append(table.expires_at)
    return min(ends, default=None)


class HistoryEntry(BaseModel):
    """One finished match of a player's history; the API answers it as it is."""

    model_config = ConfigDict(frozen=True)

    match_id: int
    table_id: int
    ended_at: datetime | None
    preset: str
    suits: int
    rated: bool
    deal_number: int | None
    outcome: Literal["won", "lost", "draw"]
    game_id: int
    status: GameStatus
    score: int
    time_used_ms: int
    opponent_id: int
    opponent_name: str
    opponent_score: int
    rating_before: float | None
    rating_after: float | None


def _outcome(winner_id: int | None, player_id: int) -> Literal["won", "lost", "draw"]:
    if winner_id is None:
        return "draw"
    return "won" if winner_id == player_id else "lost"


def _utc(moment: datetime | None) -> datetime | None:
    """The moment in UTC (no zone: taken as UTC); the year 1 or 9999 edges are clamped."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00+05:00 is before datetime.min in UTC
        edge = datetime.min if moment.year == 1 else datetime.max
        return edge.replace(tzinfo=UTC)


async def history(
    *, session: AsyncSession, player_id: int, page: int, page_size: int,
    since: datetime | None = None, until: datetime | None = None,
) -> Page[HistoryEntry]:
    """The player's finished matches, newest first; ``since`` ≤ ended_at < ``until``."""
    offset, limit = check_paging(page, page_size)
    since, until = _utc(since), _utc(until)
    if since is not None and until is not None and since >= until:
        raise InvalidInput("'since' must be before 'until'", code="bad_dates")
    await get_player(session=session, player_id=player_id)  # refused if there is none
    mine, theirs = aliased(Game), aliased(Game)
    opponent = aliased(Player)
    query = (
        select(Match, mine, theirs, opponent.name)
        .join(mine, mine.match_id == Match.id)
        .join(theirs, (theirs.match_id == Match.id) & (theirs.player_id != mine.player_id))
        .join(opponent, opponent.id == theirs.player_id)
        .where(mine.player_id == player_id, Match.status == "finished")
    )
    if since is not None:
        query = query.where(Match.ended_at >= since)
    if until is not None:
        query = query.where(Match.ended_at < until)
    counted = query.with_only_columns(Match.id).subquery()
    total = await session.scalar(select(func.count()).select_from(counted)) or 0
    rows = await session.execute(
        query.order_by(Match.ended_at.desc(), Match.id.desc()).offset(offset).limit(limit)
    )
    items = [
        HistoryEntry(
            match_id=m.id, table_id=m.table_id, ended_at=m.ended_at, preset=m.preset,
            suits=m.suits, rated=m.rated, deal_number=m.deal_number,
            outcome=_outcome(m.winner_id, player_id), game_id=g.id, status=shown_status(g),
            score=g.score, time_used_ms=g.time_used_ms, opponent_id=o.player_id,
            opponent_name=name, opponent_score=o.score, rating_before=g.rating_before,
            rating_after=g.rating_after,
        )
        for m, g, o, name in rows
    ]
    return Page(items, total, page, page_size)


async def settled_game(*, session: AsyncSession, game_id: int, what: str) -> LoadedGame:
    """A game of a duel with its log, once both games of its match are over: before that
    its record or replay (``what``) would name the opponent's face-down cards (409
    ``match_not_over``); 404 ``game_not_found`` for no such game."""
    loaded = await game_repo.load_game(session, game_id=game_id)
    if loaded is None:
        raise NotFound(f"no game {game_id}", code="game_not_found")
    games = await game_repo.games_of_match(session, match_id=loaded.match.id)
    if not match_over(loaded.match, games):
        raise Conflict(f"the {what} is available once both games are over",
                       code="match_not_over")
    return loaded


async def record_of_game(*, session: AsyncSession, game_id: int) -> dict[str, Any]:
    """The rule book's JSON record of a game, once both games of its match are over."""
    loaded = await settled_game(session=session, game_id=game_id, what="record")
    return game_record(loaded.match, loaded.actions)
