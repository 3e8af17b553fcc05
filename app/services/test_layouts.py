"""Test-only: give a match a chosen starting layout instead of its generated deal.

Only when ``settings.allow_test_layouts`` is on (never by default): browser and server
tests need near-finished games. Allowed to a seated player, before either game is opened.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.db.models import Match
from app.engine.layout import LayoutError, state_from_layout
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.services.deals import match_rules


async def set_test_layout(
    *, session: AsyncSession, match_id: int, player_id: int, layout: dict[str, Any],
    time_limit_seconds: int | None = None,
) -> Match:
    """Store ``layout`` as the match's deal (validated against the match's rules). Commits."""
    match = await session.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {match_id}", code="match_not_found")
    games = await repo.games_of_match(session, match_id=match_id)
    if player_id not in {game.player_id for game in games}:
        raise Forbidden("only a player of the match may set its test layout",
                        code="not_seated")
    if any(game.started_at is not None for game in games):
        raise Conflict("a game of this match is already open", code="match_started")
    try:
        state_from_layout(match_rules(match), layout)
    except LayoutError as error:
        raise InvalidInput(str(error), code="bad_layout") from None
    match.layout = layout
    match.difficulty = "test"
    if time_limit_seconds is not None:
        match.time_limit_seconds = time_limit_seconds
    await session.commit()
    return match
