"""Replays of finished games, duel, solo or daily: the record with its start layout, whose
game it is, and the score and clock after every step (so a replay can say "+2" and a chart
can draw the score over time).

Never for a game in progress: a solo or daily game must be over, a duel's game only once
both games of its match are over (the start layout names every face-down card).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.db.solo_models import SoloGame
from app.engine.actions import Action
from app.engine.layout import state_to_layout
from app.engine.state import GameState
from app.errors import Conflict
from app.rooms.seat_log import actions_of
from app.scoring.play import ScoredGame
from app.services import solo_store
from app.services.deals import match_rules, play_this_deal, start_state
from app.services.results import settled_game

Payload = dict[str, Any]


def _ms(moment: datetime | None, start: datetime | None) -> int | None:
    if moment is None or start is None:
        return None
    return max(0, int((moment - start).total_seconds() * 1000))


def score_steps(start: GameState, actions: Sequence[Action]) -> list[int]:
    """The score of the start, then after each action, by the game's own scoring scheme."""
    game = ScoredGame.start(start)
    scores = [game.points]
    for action in actions:
        game, _ = game.play(action)
        scores.append(game.points)
    return scores


def _replay(*, kind: str, game_id: int, player_id: int, name: str, start: GameState,
            actions: Sequence[Action], times: Sequence[int | None], by: Sequence[str],
            play: Payload | None, **more: Any) -> Payload:
    scores = score_steps(start, actions)
    steps = [{"score": scores[0], "ms": 0, "by": None}] + [
        {"score": score, "ms": ms, "by": who}
        for score, ms, who in zip(scores[1:], times, by, strict=True)
    ]
    record = {"rules": start.rules.to_json(), "layout": state_to_layout(start),
              "moves": [action.to_json() for action in actions]}
    return {"kind": kind, "game_id": game_id, "player_id": player_id, "player_name": name,
            "suits": start.rules.suits, "scoring": start.rules.scoring, "record": record,
            "steps": steps, "play": play, **more}


async def _name(session: AsyncSession, player_id: int) -> str:
    return await session.scalar(select(Player.name).where(Player.id == player_id)) or "?"


async def solo_replay(*, session: AsyncSession, game_id: int) -> Payload:
    """A finished solo or daily game's replay (409 ``game_in_progress`` before)."""
    game: SoloGame = await solo_store.get_game(session=session, game_id=game_id)
    if game.status == "playing":
        raise Conflict("the game is still in progress: its replay comes once it is over",
                       code="game_in_progress")
    log = await solo_store.logged_actions(session=session, game_id=game.id)
    options = solo_store.options_of(game)
    play = {"number": game.number, "suits": game.suits, "solvable_only": game.solvable_only,
            "relaxed": game.relaxed}
    return _replay(
        kind=game.kind, game_id=game.id, player_id=game.player_id,
        name=await _name(session, game.player_id), start=solo_store.start_state(game),
        actions=actions_of(log), times=[_ms(row.at, game.started_at) for row in log],
        by=[row.by for row in log], play=play, status=game.status,
        daily_date=None if game.daily_date is None else game.daily_date.isoformat(),
        number=game.number, options=options.to_json(), match_id=None,
        ended_at=None if game.ended_at is None else game.ended_at.isoformat())


async def duel_replay(*, session: AsyncSession, game_id: int) -> Payload:
    """One game of a duel, once both games of its match are over (409 ``match_not_over``)."""
    loaded = await settled_game(session=session, game_id=game_id, what="replay")
    match, game, rows = loaded.match, loaded.game, sorted(loaded.actions, key=lambda r: r.seq)
    times = [row.time_used_ms if row.time_used_ms is not None else _ms(row.at, game.started_at)
             for row in rows]
    return _replay(
        kind="duel", game_id=game.id, player_id=game.player_id,
        name=await _name(session, game.player_id),
        start=start_state(match, match_rules(match)), actions=actions_of(rows),
        times=times, by=["player"] * len(rows), play=play_this_deal(match),
        status=game.status, match_id=match.id,
        ended_at=None if game.ended_at is None else game.ended_at.isoformat())
