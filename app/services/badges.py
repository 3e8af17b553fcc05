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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import games as game_repo
from app.db.models import Game, GameAction, Match, PlayerBadge, SoloGame
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
from app.scoring.play import ScoredGame
from app.services import daily
from app.services.deals import match_rules, start_state
from app.services.settled import Settled

log = logging.getLogger(__name__)
Publish = Callable[[int, dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class HeldBadge:
    code: str
    title: str
    description: str
    earned_at: datetime
    kind: str
    game_id: int


class BadgeListener:
    """Subscribe an instance to the settled event."""

    def __init__(self, *, sessions: async_sessionmaker[AsyncSession], publish: Publish,
                 clock: Callable[[], datetime]) -> None:
        self._sessions = sessions
        self._publish = publish
        self._clock = clock

    async def __call__(self, event: Settled) -> None:
        for player_id in event.player_ids:
            try:
                await self.award(event, player_id)
            except Exception:  # one player's failure must not cost the other their badges
                log.exception("badges for player %d after %s %d failed", player_id,
                              event.kind, event.id)

    async def award(self, event: Settled, player_id: int) -> list[BadgeAward]:
        """Insert and announce the badges ``event`` earns ``player_id``; returns them."""
        async with self._sessions() as session:
            facts = await (solo_facts(session, event.id) if event.kind != "duel"
                           else duel_facts(session, event.id, player_id))
            if facts is None:
                return []
            record = await player_record(session, player_id, self._clock())
            held = frozenset(await session.scalars(
                select(PlayerBadge.code).where(PlayerBadge.player_id == player_id)))
            inserted = []
            for award in badges_earned(settled=facts, history=record, already=held):
                if await _insert(session, player_id, award, event):
                    inserted.append(award)
            await session.commit()
        for award in inserted:
            await self._publish(player_id, badge_frame(award, event.kind, event.id))
        return inserted


async def _insert(session: AsyncSession, player_id: int, award: BadgeAward, event: Settled
                  ) -> bool:
    values = {"player_id": player_id, "code": award.code, "earned_at": award.earned_at,
              "solo_game_id": None if event.kind == "duel" else event.id,
              "match_id": event.id if event.kind == "duel" else None}
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    done = await session.execute(insert(PlayerBadge).values(**values)
                                 .on_conflict_do_nothing())
    return bool(getattr(done, "rowcount", 0))


def badge_frame(award: BadgeAward, kind: str, game_id: int) -> dict[str, Any]:
    return {"type": "badge",
            "badge": {"code": award.code, "title": award.title,
                      "description": award.description,
                      "earned_at": award.earned_at.astimezone(UTC).isoformat()
                      .replace("+00:00", "Z")},
            "game": {"kind": kind, "id": game_id}}


async def solo_facts(session: AsyncSession, game_id: int) -> SettledFacts | None:
    game = await session.get(SoloGame, game_id)
    if game is None or game.ended_at is None:
        return None
    return SettledFacts(
        kind="daily" if game.kind == "daily" else "solo", suits=game.suits,
        won=game.status == "won", ended_at=game.ended_at, elapsed_ms=game.elapsed_ms or 0,
        actions=game.actions_count, undos=game.undos, hints=game.hints,
        rescues=game.rescues, auto_completed=game.auto_completed,
        solvable_only=game.solvable_only, relaxed=game.relaxed, daily_date=game.daily_date)


async def duel_facts(session: AsyncSession, match_id: int, player_id: int
                     ) -> SettledFacts | None:
    match = await session.get(Match, match_id)
    if match is None or match.status != "finished" or match.ended_at is None:
        return None
    games = await game_repo.games_of_match(session, match_id=match_id)
    mine = next((g for g in games if g.player_id == player_id), None)
    theirs = next((g for g in games if g.player_id != player_id), None)
    if mine is None or theirs is None:
        return None
    own_final, own_at_their_end = await _duel_scores(session, match, mine, theirs.ended_at)
    their_final, _ = await _duel_scores(session, match, theirs, None)
    behind = (theirs.ended_at is not None and mine.ended_at is not None
              and theirs.ended_at < mine.ended_at and own_at_their_end < their_final)
    undos = await session.scalar(select(func.count()).select_from(GameAction).where(
        GameAction.game_id == mine.id, GameAction.action["op"].as_string() == "undo"))
    return SettledFacts(
        kind="duel", suits=match.suits, won=match.winner_id == player_id,
        ended_at=match.ended_at, elapsed_ms=mine.time_used_ms, actions=mine.actions_count,
        undos=undos or 0, rated=match.rated, own_score=own_final, opponent_score=their_final,
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
    duel_wins = await session.scalar(select(func.count()).select_from(Match).where(
        Match.winner_id == player_id, Match.status == "finished"))
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
