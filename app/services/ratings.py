"""Ratings per suit count (Glicko-2), updated once per finished rated match; leaderboard."""

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict
from sqlalchemy import ColumnElement, and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, Match, Player, Rating, utcnow
from app.errors import InvalidInput
from app.rooms.winner import NO_SHOW, match_score
from app.services.bands import band_of
from app.services.glicko2 import Glicko, rate_pair
from app.services.paging import Page, check_paging
from app.services.settled import MatchSettled, match_settled

SUIT_COUNTS = (1, 2, 4)


def check_suits(suits: int) -> int:
    if suits not in SUIT_COUNTS:
        raise InvalidInput(f"suits must be 1, 2 or 4, not {suits!r}", code="bad_suits")
    return suits


@dataclass(frozen=True)
class CurrentRating:
    rating: float
    rd: float
    volatility: float
    games: int

    @property
    def glicko(self) -> Glicko:
        return Glicko(self.rating, self.rd, self.volatility)


NEW_PLAYER = CurrentRating(Glicko().rating, Glicko().rd, Glicko().volatility, 0)


def _current(row: Rating | None) -> CurrentRating:
    if row is None:
        return NEW_PLAYER
    return CurrentRating(row.rating, row.rd, row.volatility, row.games)


async def rating_of(*, session: AsyncSession, player_id: int, suits: int) -> CurrentRating:
    return _current(await session.get(Rating, (player_id, suits)))


async def ratings_of(*, session: AsyncSession, player_id: int) -> dict[int, CurrentRating]:
    rows = await session.scalars(select(Rating).where(Rating.player_id == player_id))
    found = {row.suits: _current(row) for row in rows}
    return {suits: found.get(suits, NEW_PLAYER) for suits in SUIT_COUNTS}


async def _store(session: AsyncSession, player_id: int, suits: int, new: Glicko) -> None:
    row = await session.get(Rating, (player_id, suits))
    if row is None:
        row = Rating(player_id=player_id, suits=suits, games=0)
        session.add(row)
    row.rating, row.rd, row.volatility = new.rating, new.rd, new.volatility
    row.games += 1
    row.updated_at = utcnow()


async def rate_games(
    *, session: AsyncSession, suits: int, first: Game, second: Game, first_score: float
) -> None:
    """One rating period for both players; records before/after on each game. No commit."""
    before_first = await rating_of(session=session, player_id=first.player_id, suits=suits)
    before_second = await rating_of(session=session, player_id=second.player_id, suits=suits)
    after_first, after_second = rate_pair(before_first.glicko, before_second.glicko,
                                          first_score)
    for game, before, after in (
        (first, before_first, after_first),
        (second, before_second, after_second),
    ):
        game.rating_before = before.rating
        game.rating_after = after.rating
        await _store(session, game.player_id, suits, after)


MIN_RATED_ACTIONS = 10
MIN_RATED_MS = 60_000
"""A game counts for ratings once it lasted this many actions or this long (or was won):
a Finish after one move is an aborted game, not a rating period (docs/ratings.md)."""


def played_enough(game: Game, status: str) -> bool:
    return (status == "won" or game.actions_count >= MIN_RATED_ACTIONS
            or game.time_used_ms >= MIN_RATED_MS)


def too_short() -> ColumnElement[bool]:
    """SQL: a game of ``games`` that was started and did not play enough (the negation of
    :func:`played_enough` for a started game; a game never opened has no ``started_at``)."""
    return and_(Game.started_at.is_not(None), Game.status != "won",
                Game.actions_count < MIN_RATED_ACTIONS, Game.time_used_ms < MIN_RATED_MS)


def match_counts(event: MatchSettled, games: list[Game]) -> bool:
    """A match counts (for ratings if rated, for duel badges either way) when someone
    started and every game that was started played enough; a player who did not start
    counts as a loss against one who did."""
    started = _started(event, games)
    return bool(started) and all(played_enough(g, s) for g, s in started)


def _started(event: MatchSettled, games: list[Game]) -> list[tuple[Game, str]]:
    """The games that were started, each with how it ended."""
    return [(game, seat.status) for game, seat in zip(games, event.seats, strict=True)
            if seat.status != NO_SHOW]


RATED_MIN_ACTIONS = 20
RATED_MIN_MS = 120_000
"""A game its player ended with Finish moves ratings only once it lasted this many
actions AND this long (or half its clock, on a clock under 4 minutes): a double Finish
after 15 actions in 70 seconds is no contest, yet moved new players' ratings by ±162
(issue 24). A game played to its end (won, or its clock ran out) is rated however short
(docs/ratings.md)."""
NATURAL_ENDS = ("won", "timed_out")


def rated_enough(*, status: str, actions: int, time_used_ms: int,
                 time_limit_seconds: int) -> bool:
    """Whether a started game, as it ended, is a rating period's worth of play."""
    if status in NATURAL_ENDS:
        return True
    needed_ms = min(RATED_MIN_MS, time_limit_seconds * 1000 // 2)
    return actions >= RATED_MIN_ACTIONS and time_used_ms >= needed_ms


def moves_ratings(event: MatchSettled, games: list[Game], time_limit_seconds: int) -> bool:
    """A rated match moves ratings when it counts (:func:`match_counts`) and every game
    that was started is rated enough (:func:`rated_enough`); a no-show is rated as a loss
    against such a game. Otherwise the match is unrated: too short to rate."""
    return event.rated and match_counts(event, games) and all(
        rated_enough(status=status, actions=game.actions_count,
                     time_used_ms=game.time_used_ms, time_limit_seconds=time_limit_seconds)
        for game, status in _started(event, games))


async def rate_settled_match(event: MatchSettled, session: AsyncSession) -> None:
    """A ``match_settled`` listener: a rated match is one rating period for both players."""
    if not event.rated:
        return
    first, second = [await session.get(Game, seat.game_id) for seat in event.seats]
    match = await session.get(Match, event.match_id)
    assert first is not None and second is not None and match is not None  # just read
    if not moves_ratings(event, [first, second], match.time_limit_seconds):
        return
    await rate_games(session=session, suits=event.suits, first=first, second=second,
                     first_score=match_score(event.winner_id, first.player_id))


match_settled.subscribe(rate_settled_match)


class LeaderboardEntry(BaseModel):
    """One line of a leaderboard; the API answers it as it is (LeaderboardEntryOut)."""

    model_config = ConfigDict(frozen=True)

    rank: int
    player_id: int
    name: str
    rating: float
    rd: float
    band: str
    games: int


async def leaderboard(
    *, session: AsyncSession, suits: int, page: int, page_size: int
) -> Page[LeaderboardEntry]:
    """Rated players (at least one rated match) by rating, best first."""
    check_suits(suits)
    offset, limit = check_paging(page, page_size)
    where = (Rating.suits == suits, Rating.games > 0)
    total = await session.scalar(select(func.count()).select_from(Rating).where(*where)) or 0
    rows = await session.execute(
        select(Rating, Player.name)
        .join(Player, Player.id == Rating.player_id)
        .where(*where)
        .order_by(Rating.rating.desc(), Rating.player_id)
        .offset(offset)
        .limit(limit)
    )
    items = [
        LeaderboardEntry(rank=offset + index + 1, player_id=rating.player_id, name=name,
                         rating=rating.rating, rd=rating.rd, band=band_of(rating.rating),
                         games=rating.games)
        for index, (rating, name) in enumerate(rows)
    ]
    return Page(items, total, page, page_size)
