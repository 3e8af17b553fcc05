"""A player's past in one place: every finished duel, solo and daily game in one list
(newest first), and what they add up to — win rate, streaks and bests per mode and suit
count, and the rating per suit count after every rated match (``games.rating_after``).

Only finished games: a duel once its match is settled, a solo or daily game once it is
won, given up or expired. Nothing here names a card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, literal, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import Game, Match, Player
from app.db.solo_models import SoloGame
from app.services.deals import play_this_deal
from app.services.paging import Page, check_paging
from app.services.players import get_player
from app.services.results import shown_status

Payload = dict[str, Any]
MODES = ("duel", "solo", "daily")
SUIT_COUNTS = (1, 2, 4)


def _duel_keys(player_id: int) -> Any:
    return (select(literal("duel").label("kind"), Game.id.label("id"),
                   Match.ended_at.label("ended_at"))
            .join(Match, Match.id == Game.match_id)
            .where(Game.player_id == player_id, Match.status == "finished"))


def _solo_keys(player_id: int) -> Any:
    return (select(SoloGame.kind.label("kind"), SoloGame.id.label("id"),
                   SoloGame.ended_at.label("ended_at"))
            .where(SoloGame.player_id == player_id, SoloGame.status != "playing"))


async def game_list(*, session: AsyncSession, player_id: int, page: int, page_size: int
                    ) -> Page[Payload]:
    """Finished duels, solo and daily games of a player, newest first, one page."""
    offset, limit = check_paging(page, page_size)
    await get_player(session=session, player_id=player_id)  # 404 for nobody
    keys = union_all(_duel_keys(player_id), _solo_keys(player_id)).subquery()
    total = await session.scalar(select(func.count()).select_from(keys)) or 0
    rows = (await session.execute(
        select(keys.c.kind, keys.c.id)
        .order_by(keys.c.ended_at.desc(), keys.c.kind, keys.c.id.desc())
        .offset(offset).limit(limit))).all()
    duel_ids = [game_id for kind, game_id in rows if kind == "duel"]
    solo_ids = [game_id for kind, game_id in rows if kind != "duel"]
    found = {("duel", item["game_id"]): item for item in await _duels(session, duel_ids)}
    found.update({("solo", item["game_id"]): item for item in await _solos(session, solo_ids)})
    items = [found[("duel" if kind == "duel" else "solo", game_id)] for kind, game_id in rows]
    return Page(items, total, page, page_size)


async def _duels(session: AsyncSession, game_ids: Sequence[int]) -> list[Payload]:
    if not game_ids:
        return []
    mine, theirs, opponent = aliased(Game), aliased(Game), aliased(Player)
    rows = await session.execute(
        select(Match, mine, theirs, opponent.name)
        .join(mine, mine.match_id == Match.id)
        .join(theirs, (theirs.match_id == Match.id) & (theirs.player_id != mine.player_id))
        .join(opponent, opponent.id == theirs.player_id)
        .where(mine.id.in_(game_ids)))
    return [_duel_item(m, g, o, name) for m, g, o, name in rows]


def _duel_item(match: Match, game: Game, theirs: Game, opponent: str) -> Payload:
    result = ("draw" if match.winner_id is None
              else "won" if match.winner_id == game.player_id else "lost")
    return {
        "kind": "duel", "game_id": game.id, "match_id": match.id, "ended_at": match.ended_at,
        "suits": match.suits, "result": result, "status": shown_status(game),
        "score": game.score, "points": None, "time_ms": game.time_used_ms,
        "actions": game.actions_count, "opponent_name": opponent,
        "opponent_score": theirs.score, "rated": match.rated,
        "rating_after": game.rating_after, "daily_date": None, "number": None,
        "play": play_this_deal(match), "replay": shown_status(game) != "did_not_start",
    }


async def _solos(session: AsyncSession, game_ids: Sequence[int]) -> list[Payload]:
    if not game_ids:
        return []
    rows = await session.scalars(select(SoloGame).where(SoloGame.id.in_(game_ids)))
    return [_solo_item(game) for game in rows]


def _solo_item(game: SoloGame) -> Payload:
    return {
        "kind": game.kind, "game_id": game.id, "match_id": None, "ended_at": game.ended_at,
        "suits": game.suits, "result": game.status, "status": game.status,
        "score": game.score, "points": game.points, "time_ms": game.elapsed_ms,
        "actions": game.actions_count, "opponent_name": None, "opponent_score": None,
        "rated": False, "rating_after": None,
        "daily_date": None if game.daily_date is None else game.daily_date.isoformat(),
        "number": game.number,
        "play": {"number": game.number, "suits": game.suits,
                 "solvable_only": game.solvable_only, "relaxed": game.relaxed},
        "replay": True,
    }


# ------------------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished game, reduced to what the statistics count."""

    mode: str
    suits: int
    won: bool
    ended_at: datetime | None
    time_ms: int | None
    best: int | None  # a duel's score, a solo or daily win's points


def streaks(wins: Iterable[bool]) -> tuple[int, int]:
    """(current, best) runs of wins, oldest first in ``wins``."""
    current = best = 0
    for won in wins:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


def mode_stats(outcomes: Sequence[Outcome]) -> list[Payload]:
    """Per mode and suit count (only those played): played, won, win rate, streaks, bests."""
    out = []
    for mode in MODES:
        for suits in SUIT_COUNTS:
            games = [o for o in outcomes if o.mode == mode and o.suits == suits]
            if not games:
                continue
            wins = [o for o in games if o.won]
            current, best = streaks(o.won for o in games)
            times = [o.time_ms for o in wins if o.time_ms is not None]
            bests = [o.best for o in (games if mode == "duel" else wins) if o.best is not None]
            out.append({
                "mode": mode, "suits": suits, "played": len(games), "won": len(wins),
                "win_rate": len(wins) / len(games), "current_streak": current,
                "best_streak": best, "best_time_ms": min(times, default=None),
                "best_points": max(bests, default=None),
            })
    return out


async def _outcomes(session: AsyncSession, player_id: int) -> list[Outcome]:
    duels = await session.execute(
        select(Match.suits, Match.winner_id, Match.ended_at, Game.time_used_ms, Game.score)
        .join(Game, Game.match_id == Match.id)
        .where(Game.player_id == player_id, Match.status == "finished"))
    solos = await session.execute(
        select(SoloGame.kind, SoloGame.suits, SoloGame.status, SoloGame.ended_at,
               SoloGame.elapsed_ms, SoloGame.points)
        .where(SoloGame.player_id == player_id, SoloGame.status != "playing"))
    outcomes = [Outcome("duel", suits, winner == player_id, ended, ms, score)
                for suits, winner, ended, ms, score in duels]
    outcomes += [Outcome(kind, suits, status == "won", ended, ms, points)
                 for kind, suits, status, ended, ms, points in solos]
    return sorted(outcomes, key=lambda o: (o.ended_at is None, o.ended_at))


async def rating_history(session: AsyncSession, player_id: int) -> list[Payload]:
    """Per suit count, the rating before the first rated match, then after each one."""
    rows = await session.execute(
        select(Match.suits, Match.id, Match.ended_at, Game.rating_before, Game.rating_after)
        .join(Game, Game.match_id == Match.id)
        .where(Game.player_id == player_id, Match.status == "finished",
               Game.rating_after.is_not(None))
        .order_by(Match.ended_at, Match.id))
    series: dict[int, list[Payload]] = {}
    for suits, match_id, ended_at, before, after in rows:
        points = series.setdefault(suits, [])
        if not points and before is not None:
            points.append({"at": None, "match_id": None, "rating": before})
        points.append({"at": ended_at, "match_id": match_id, "rating": after})
    return [{"suits": suits, "points": series[suits]} for suits in SUIT_COUNTS
            if suits in series]


async def player_stats(*, session: AsyncSession, player_id: int) -> Payload:
    player = await get_player(session=session, player_id=player_id)
    return {"player_id": player.id, "player_name": player.name,
            "modes": mode_stats(await _outcomes(session, player_id)),
            "ratings": await rating_history(session, player_id)}
