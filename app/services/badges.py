"""Badges: awarded by one listener of the settled event, never by the services themselves.

For each player of a settled game or match, the listener reads the facts of that game
and the player's totals from the stored rows, asks ``app.rewards.badges.badges_earned``
which badges are new, inserts them ("on conflict do nothing": two settlements racing
award a badge once) and announces those it inserted (docs/solo-and-daily.md section 6).
Every rule is checked at every settlement, so an award lost to a failure comes back at
the player's next one.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as game_repo
from app.db.models import Game, GameAction, Match
from app.db.solo_models import PlayerBadge, SoloGame
from app.engine.actions import action_from_json
from app.engine.rules import with_options
from app.rewards.badges import (
    BADGES,
    BADGES_BY_CODE,
    BadgeAward,
    PlayerRecord,
    SettledFacts,
    badges_earned,
)
from app.rewards.fair_play import AssistCounts
from app.rooms import frames
from app.scoring.play import ScoredGame
from app.services import daily, solo_assists
from app.services.deals import match_rules, start_state
from app.services.ratings import match_counts, too_short
from app.services.settled import (
    MatchSettled,
    SoloSettled,
    match_settled,
    notify,
    solo_settled,
)

log = logging.getLogger(__name__)
SOLO = "solo"


@dataclass(frozen=True, slots=True)
class HeldBadge:
    code: str
    title: str
    description: str
    earned_at: datetime
    kind: str
    game_id: int


async def on_solo_settled(event: SoloSettled, session: AsyncSession) -> None:
    """Badges a settled solo or daily game earns its player (in the settling transaction)."""
    async with _apart(session, f"solo game {event.game_id}"):
        facts = await solo_facts(session, event.game_id)
        if facts is not None:
            await award(session, event.player_id, facts, solo_game_id=event.game_id)


async def on_match_settled(event: MatchSettled, session: AsyncSession) -> None:
    """Badges a settled duel earns each of its two players (in the settling transaction)."""
    for seat in event.seats:
        async with _apart(session, f"match {event.match_id}"):
            facts = await duel_facts(session, event, seat.player_id)
            if facts is not None:
                await award(session, seat.player_id, facts, match_id=event.match_id)


@asynccontextmanager
async def _apart(session: AsyncSession, what: str) -> AsyncIterator[None]:
    """A savepoint: a badge failure is logged and undone alone, never the settlement (every
    rule is checked again at the player's next settlement, so nothing is lost for good)."""
    savepoint = await session.begin_nested()
    try:
        yield
    except Exception:
        await savepoint.rollback()
        log.exception("badges after %s failed; the settlement stands", what)
    else:
        await savepoint.commit()


async def award(session: AsyncSession, player_id: int, facts: SettledFacts, *,
                solo_game_id: int | None = None, match_id: int | None = None
                ) -> list[BadgeAward]:
    """Insert the badges ``facts`` earn the player that they do not hold; leave a ``badge``
    frame for each one inserted (sent once the settlement commits)."""
    record = await player_record(session, player_id, facts.ended_at)
    held = frozenset(await session.scalars(
        select(PlayerBadge.code).where(PlayerBadge.player_id == player_id)))
    inserted = []
    for earned in badges_earned(settled=facts, history=record, already=held):
        values = {"player_id": player_id, "code": earned.code, "earned_at": earned.earned_at,
                  "solo_game_id": solo_game_id, "match_id": match_id}
        insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
        done = await session.execute(insert(PlayerBadge).values(**values)
                                     .on_conflict_do_nothing())
        if getattr(done, "rowcount", 0):
            inserted.append(earned)
            kind = facts.kind
            notify(session, player_id, frames.badge(earned, kind, solo_game_id or match_id or 0))
    return inserted


async def solo_facts(session: AsyncSession, game_id: int) -> SettledFacts | None:
    game = await session.get(SoloGame, game_id)
    if game is None or game.ended_at is None:
        return None
    return SettledFacts(
        kind="daily" if game.kind == "daily" else "solo", suits=game.suits,
        won=game.status == "won", ended_at=game.ended_at, elapsed_ms=game.elapsed_ms or 0,
        actions=game.actions_count, undos=game.undos, hints=game.hints,
        rescues=game.rescues, auto_completed=game.auto_completed,
        solvable_only=game.solvable_only, relaxed=game.relaxed, daily_date=game.daily_date,
        assists=await _assist_counts(session, game))


async def _assist_counts(session: AsyncSession, game: SoloGame) -> AssistCounts | None:
    """The game's logged assists; ``None`` for a game from before they were logged (its
    counters speak for it)."""
    rows = await solo_assists.assists_of(session=session, game_id=game.id)
    if not rows:
        return None
    counts = solo_assists.counts_of(rows)
    # The counters too: a test or an older writer may have counted without a row.
    return AssistCounts(hints=max(counts.hints, game.hints),
                        rescues=max(counts.rescues, game.rescues),
                        undo_to_winnable=counts.undo_to_winnable,
                        auto_complete=max(counts.auto_complete, int(game.auto_completed)))


async def duel_facts(session: AsyncSession, event: MatchSettled, player_id: int
                     ) -> SettledFacts | None:
    match = await session.get(Match, event.match_id)
    mine = next((s for s in event.seats if s.player_id == player_id), None)
    theirs = next((s for s in event.seats if s.player_id != player_id), None)
    if match is None or mine is None or theirs is None:
        return None
    my_game = await session.get(Game, mine.game_id)
    their_game = await session.get(Game, theirs.game_id)
    if my_game is None or their_game is None:
        return None
    games = {game.id: game for game in (my_game, their_game)}
    if not match_counts(event, [games[seat.game_id] for seat in event.seats]):
        return None  # too short to count: no badge from a Finish in the first seconds
    behind = False
    if (their_game.ended_at is not None and my_game.ended_at is not None
            and their_game.ended_at < my_game.ended_at):
        _, at_their_end = await _duel_scores(session, match, my_game, their_game.ended_at)
        behind = at_their_end < theirs.duel_points
    undos = await session.scalar(select(func.count()).select_from(GameAction).where(
        GameAction.game_id == my_game.id, GameAction.action["op"].as_string() == "undo"))
    return SettledFacts(
        kind="duel", suits=event.suits, won=event.winner_id == player_id,
        ended_at=event.ended_at, elapsed_ms=mine.time_used_ms,
        actions=my_game.actions_count, undos=undos or 0, rated=event.rated,
        own_score=mine.duel_points, opponent_score=theirs.duel_points,
        solvable_only=match.layout is not None or match.difficulty is not None,
        behind_at_opponent_finish=behind)


async def _duel_scores(session: AsyncSession, match: Match, game: Game,
                       moment: datetime | None) -> tuple[int, int]:
    """The game's final ``duel`` score, and its score at ``moment`` (actions logged at or
    before it)."""
    rules = with_options(match_rules(match), scoring="duel")
    scored = ScoredGame.start(start_state(match, rules))
    at_moment = scored.points
    for row in await game_repo.actions_of_game(session, game_id=game.id):
        scored, _ = scored.play(action_from_json(row.action))
        if moment is not None and row.at <= moment:
            at_moment = scored.points
    return scored.points, at_moment


async def player_record(session: AsyncSession, player_id: int, now: datetime) -> PlayerRecord:
    """The player's totals as the badge rules read them (the settled game included)."""
    solo_wins, daily_wins, daily_played = (await session.execute(
        select(func.count().filter(SoloGame.kind == "solo", SoloGame.status == "won"),
               func.count().filter(SoloGame.kind == "daily", SoloGame.status == "won"),
               func.count().filter(SoloGame.kind == "daily", SoloGame.status != "playing"))
        .where(SoloGame.player_id == player_id))).one()
    # Won duels that count (docs/ratings.md): wins by a Finish in the first seconds would
    # farm "Duelist" between two friends.
    short = select(Game.id).where(Game.match_id == Match.id, too_short()).exists()
    duel_wins = await session.scalar(select(func.count()).select_from(Match).where(
        Match.winner_id == player_id, Match.status == "finished", ~short))
    streak = await daily.streak_of(session=session, player_id=player_id,
                                   today=max(now.astimezone(UTC).date(),
                                             await _last_daily(session, player_id)))
    return PlayerRecord(solo_wins=solo_wins, daily_wins=daily_wins, daily_played=daily_played,
                        duel_wins=duel_wins or 0, daily_streak=streak)


async def _last_daily(session: AsyncSession, player_id: int) -> date:
    last = await session.scalar(select(func.max(SoloGame.daily_date)).where(
        SoloGame.player_id == player_id))
    return last or date.min


async def held_badges(*, session: AsyncSession, player_id: int) -> list[HeldBadge]:
    """The player's badges still in the table, earliest first."""
    rows = await session.scalars(select(PlayerBadge).where(PlayerBadge.player_id == player_id)
                                 .order_by(PlayerBadge.earned_at, PlayerBadge.code))
    held = []
    for row in rows:
        badge = BADGES_BY_CODE.get(row.code)
        if badge is None:
            continue
        if row.match_id is not None:
            kind, game_id = "duel", row.match_id
        else:
            assert row.solo_game_id is not None
            game = await session.get(SoloGame, row.solo_game_id)
            kind, game_id = (game.kind if game is not None else "solo"), row.solo_game_id
        held.append(HeldBadge(badge.code, badge.title, badge.description, row.earned_at, kind,
                              game_id))
    return held


def badge_table() -> list[dict[str, str]]:
    return [{"code": b.code, "title": b.title, "description": b.description} for b in BADGES]


solo_settled.subscribe(on_solo_settled)
match_settled.subscribe(on_match_settled)
