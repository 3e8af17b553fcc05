"""The daily duel: today's daily deal as a duel, players matched by rating band, one match a
player a day, never the daily attempt (docs/solo-and-daily.md, "The daily duel")."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.db.models import Player, Rating, utcnow
from app.engine.daily import daily_deal, daily_deal_number
from app.errors import Conflict
from app.services import daily, daily_duel, players, results, solo_store, tables
from app.services.daily_duel import DailyDuel
from app.services.friends import IGNORES, add_contact
from tests.support.play import play


def today() -> date:
    """Today as the service reads it, read when a test runs (a module-level constant
    went stale when a run crossed midnight UTC)."""
    return utcnow().date()


async def player(session: AsyncSession, name: str, rating: float | None = None) -> Player:
    made = (await players.create_player(session=session, name=name, secret_key="k")).player
    if rating is not None:  # a 2-suit rating outside the newcomers' band
        session.add(Rating(player_id=made.id, suits=2, rating=rating, rd=80.0,
                           volatility=0.06, games=30))
        await session.commit()
    return made


async def take(session: AsyncSession, who: Player, day: date | None = None) -> DailyDuel:
    return await daily_duel.take_daily_duel(session=session, player=who, day=day or today(),
                                            ttl_seconds=24 * 3600)


async def test_two_players_of_a_band_meet_on_the_daily_deal(session: AsyncSession) -> None:
    ann, bob = await player(session, "Ann"), await player(session, "Bob")
    waiting = await take(session, ann)
    table = waiting.view.table
    assert waiting.created and waiting.view.match is None
    assert (table.daily_date, table.level, table.suits, table.preset) == (
        today(), "intermediate", 2, "classic")
    assert not table.is_public and not table.rated  # not in the lobby, never rated
    end_of_day = utcnow().replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    assert table.expires_at is not None and table.expires_at <= end_of_day

    again = await take(session, ann)  # asking again: the same wait
    assert (again.created, again.view.table.id) == (False, table.id)

    met = await take(session, bob)
    assert not met.created and met.view.table.id == table.id
    match = met.view.match
    assert match is not None
    found = daily_deal(today())
    assert (match.deal_number, match.play_number, match.play_solvable_only) == (
        found.source, daily_deal_number(today()), True)
    assert match.difficulty == found.difficulty


async def test_another_band_waits_at_its_own_table(session: AsyncSession) -> None:
    ann, eve = await player(session, "Ann"), await player(session, "Eve", rating=2100.0)
    first = await take(session, ann)
    second = await take(session, eve)
    assert second.created and second.view.table.id != first.view.table.id
    assert second.view.table.level == "expert"
    kim = await player(session, "Kim", rating=2050.0)
    met = await take(session, kim)
    assert met.view.table.id == second.view.table.id and met.view.match is not None


async def test_yesterdays_waiting_table_is_not_todays(session: AsyncSession) -> None:
    ann, bob = await player(session, "Ann"), await player(session, "Bob")
    old = await take(session, ann, day=today() - timedelta(days=1))
    new = await take(session, bob)
    assert new.created and new.view.table.id != old.view.table.id


async def test_one_daily_duel_a_day_and_it_is_not_the_daily_attempt(
    session: AsyncSession,
) -> None:
    ann, bob = await player(session, "Ann"), await player(session, "Bob")
    await take(session, ann)
    met = await take(session, bob)
    assert met.view.match is not None
    first, second = await repo.games_of_match(session, match_id=met.view.match.id)
    await play(session, game_id=first.id, steps=3, end="finished", time_used_ms=60_000)
    await play(session, game_id=second.id, steps=2, end="finished", time_used_ms=90_000)
    await results.finish_match(session=session, match_id=met.view.match.id)
    with pytest.raises(Conflict) as once:  # one match: its deal is the day's
        await tables.agree_new_game(session=session, table_id=met.view.table.id, player=ann)
    assert once.value.code == "daily_duel_once"
    await tables.leave_table(session=session, table_id=met.view.table.id, player=bob)

    with pytest.raises(Conflict) as refused:  # played today (even after leaving the table)
        await take(session, bob)
    assert refused.value.code == "daily_duel_played"
    assert await daily_duel.my_daily_duel(session=session, player=bob,
                                          day=today()) == met.view.table.id
    # The daily game knows nothing of it: no attempt, nobody on today's counts.
    assert await solo_store.daily_of(session=session, player_id=bob.id, day=today()) is None
    counts = await daily.day_counts(session=session, day=today())
    assert (counts.players, counts.winners) == (0, 0)


async def test_the_only_one_waiting_is_a_player_i_ignore_so_i_wait_at_my_own(
        session: AsyncSession) -> None:
    """The quick duel's bug (tests/services/test_quick_duel.py) here too: the refused seat's
    rollback expired my row, and opening my own table read it outside the loop."""
    ann, bob = await player(session, "Ann"), await player(session, "Bob")
    waiting_id = (await take(session, ann)).view.table.id
    await add_contact(session=session, player=bob, name="Ann", contacts=IGNORES)
    mine = await take(session, bob)
    assert mine.created and mine.view.table.id != waiting_id
