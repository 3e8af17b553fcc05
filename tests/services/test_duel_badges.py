"""Duel badges from real duels: actions through the engine and the log, the match settled
by the results service; the badge listener hears ``match_settled``.

Equal scores go to the shorter time; comebacks are played on the near-finished test
layout, whose winning line scores as runs are completed.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.db.models import DuelTable, Match, Player
from app.db.solo_models import PlayerBadge
from app.engine.actions import action_from_json
from app.rewards.badges import DUEL_WINS_GOAL
from app.rooms.store import Totals
from app.scoring.play import ScoredGame
from app.services import results, tables
from app.services.badges import player_record
from app.services.deals import rebuild
from tests.services.test_results import games, seated_match
from tests.support.duel_layouts import WINNING_LINE, near_finished_layout
from tests.support.play import play


async def badges_of(session: AsyncSession, player_id: int) -> dict[str, int | None]:
    rows = await session.scalars(select(PlayerBadge).where(PlayerBadge.player_id == player_id))
    return {row.code: row.match_id for row in rows}


async def play_line(session: AsyncSession, game_id: int, actions: list[dict[str, Any]], *,
                    end: str | None, time_used_ms: int = 60_000) -> int:
    """Log ``actions`` (after those already logged) and maybe end the game; the score."""
    loaded = await repo.load_game(session, game_id=game_id)
    assert loaded is not None
    scored = ScoredGame.start(rebuild(loaded.match, ()))
    for row in loaded.actions:
        scored, _ = scored.play(action_from_json(row.action))
    for seq, data in enumerate(actions, start=len(loaded.actions) + 1):
        scored, _ = scored.play(action_from_json(data))
        await repo.append_action(session, game_id=game_id, seq=seq, action=data)
    if end is not None:
        await repo.start_game(session, game=loaded.game)
        await repo.finish_game(session, game=loaded.game, status=end,
                               progress=Totals(scored.points, scored.state.actions,
                                                 time_used_ms))
    await session.commit()
    return scored.points


async def near_finished(session: AsyncSession) -> tuple[Player, Player, Match, int, int]:
    """A seated match on the near-finished test layout (WINNING_LINE wins it)."""
    ann, bob, match = await seated_match(session)
    match.layout = near_finished_layout()
    await session.commit()
    first, second = await games(session, match)
    return ann, bob, match, first, second


async def test_the_faster_of_two_equal_scores_earns_first_duel_the_loser_nothing(
    session: AsyncSession,
) -> None:
    ann, bob, match = await seated_match(session)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=3, time_used_ms=70_000)
    await play(session, game_id=second, steps=3, time_used_ms=80_000)
    settled = await results.finish_match(session=session, match_id=match.id)
    assert settled.match.winner_id == ann.id
    assert await badges_of(session, ann.id) == {"first_duel": match.id}
    assert await badges_of(session, bob.id) == {}


async def test_a_duel_too_short_to_count_earns_no_badge_and_no_win_toward_duelist(
    session: AsyncSession,
) -> None:
    """Two friends farming: a Finish after three actions and ten seconds wins a duel that
    counts for nothing (docs/badges.md, docs/ratings.md)."""
    ann, bob, match = await seated_match(session, rated=False)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=3, time_used_ms=9_000)
    await play(session, game_id=second, steps=3, time_used_ms=10_000)
    settled = await results.finish_match(session=session, match_id=match.id)
    assert settled.match.winner_id == ann.id  # the result stands
    assert await badges_of(session, ann.id) == {}
    # A later duel that counts is her first win for the badges: "first_duel", and the
    # short one is not among the wins that "duelist" counts.
    await tables.agree_new_game(session=session, table_id=match.table_id, player=ann)
    again = await tables.agree_new_game(session=session, table_id=match.table_id, player=bob)
    assert again.match is not None
    first, second = await games(session, again.match)
    await play(session, game_id=first, steps=3, time_used_ms=70_000)
    await play(session, game_id=second, steps=3, time_used_ms=80_000)
    await results.finish_match(session=session, match_id=again.match.id)
    assert await badges_of(session, ann.id) == {"first_duel": again.match.id}
    record = await player_record(session, ann.id, settled.match.ended_at or again.match.created_at)
    assert record.duel_wins == 1


async def test_comeback_needs_being_behind_when_the_opponent_finished(
    session: AsyncSession,
) -> None:
    ann, bob, match, first, second = await near_finished(session)
    early = await play_line(session, first, WINNING_LINE[:1], end=None)
    bob_final = await play_line(session, second, WINNING_LINE, end="won", time_used_ms=60_000)
    assert early < bob_final  # Ann is behind when Bob's game ends…
    ann_final = await play_line(session, first, WINNING_LINE[1:], end="won",
                                time_used_ms=50_000)
    assert ann_final == bob_final  # …and wins on time
    settled = await results.finish_match(session=session, match_id=match.id)
    assert settled.match.winner_id == ann.id
    assert set(await badges_of(session, ann.id)) == {"first_duel", "comeback"}
    assert set(await badges_of(session, bob.id)) == set()


async def test_no_comeback_for_a_winner_who_was_level_when_the_opponent_finished(
    session: AsyncSession,
) -> None:
    ann, _bob, match, first, second = await near_finished(session)
    await play_line(session, first, WINNING_LINE, end=None)
    await play_line(session, second, WINNING_LINE, end="won", time_used_ms=60_000)
    await play_line(session, first, [], end="won", time_used_ms=50_000)
    settled = await results.finish_match(session=session, match_id=match.id)
    assert settled.match.winner_id == ann.id
    assert set(await badges_of(session, ann.id)) == {"first_duel"}


async def test_duelist_at_the_tenth_duel_won(session: AsyncSession) -> None:
    ann, bob, match = await seated_match(session)
    earlier = DuelTable(owner_id=bob.id, preset="duel", suits=1, time_limit_seconds=900,
                        level="any", is_public=True, rated=False, status="closed")
    session.add(earlier)
    await session.flush()
    session.add_all(Match(table_id=earlier.id, ordinal=n, preset="duel", suits=1,
                          time_limit_seconds=900, rated=False, deal_number=n,
                          status="finished", winner_id=ann.id, ended_at=earlier.created_at)
                    for n in range(1, DUEL_WINS_GOAL - 1))  # 8 stored wins
    await session.commit()
    first, second = await games(session, match)
    await play(session, game_id=first, steps=3, time_used_ms=70_000)
    await play(session, game_id=second, steps=3, time_used_ms=80_000)
    await results.finish_match(session=session, match_id=match.id)  # the 9th
    assert "duelist" not in await badges_of(session, ann.id)

    await tables.agree_new_game(session=session, table_id=match.table_id, player=ann)
    again = await tables.agree_new_game(session=session, table_id=match.table_id, player=bob)
    next_match = again.match
    assert next_match is not None
    first, second = await games(session, next_match)
    await play(session, game_id=first, steps=3, time_used_ms=70_000)
    await play(session, game_id=second, steps=3, time_used_ms=80_000)
    await results.finish_match(session=session, match_id=next_match.id)  # the 10th
    assert (await badges_of(session, ann.id))["duelist"] == next_match.id
