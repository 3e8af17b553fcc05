"""A quick duel started at once in the live layer (docs/api.md, "Quick duel"): my game is
played before anyone is paired; the next player who asks is seated into that match and
plays the same deal with their own clock; the match settles once, when both games are
over; nobody paired before the deadline: the request lapses and the match ends without an
opponent (no winner, no rating). On SQLite and PostgreSQL, with a clock moved by hand."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import DuelTable, Game, Match, Player, utcnow
from app.messaging.pubsub import MemoryPubSub
from app.rooms.duel import DuelService
from app.rooms.sweeper import OverdueSweeper
from app.services import quick_duel
from app.services.players import create_player
from app.services.results import LAPSED
from app.services.sql_store import SqlStore
from app.wire.duel import MatchResult
from tests.support.clock import FakeClock
from tests.support.frames import as_json

Sessions = async_sessionmaker[AsyncSession]
DEADLINE = 600  # seconds: the quick-duel deadline of these tests


async def no_follow(channel: str) -> None:
    return None


async def landed(results: list[Any], count: int) -> None:
    """The database works in threads the fake clock does not wait for: until ``count``
    results were published (or 5 s; the time of the duel is the fake clock's)."""
    for _ in range(500):
        if len(results) >= count:
            return
        await asyncio.sleep(0.01)


async def player(sessions: Sessions, name: str) -> Player:
    async with sessions() as session:
        return (await create_player(session=session, name=name, secret_key="k")).player


async def ask(sessions: Sessions, who: Player) -> quick_duel.QuickDuel:
    async with sessions() as session:
        return await quick_duel.take_quick_duel(session=session, player=who, suits=1,
                                                deadline_seconds=DEADLINE)


async def match_row(sessions: Sessions, match_id: int) -> tuple[Match, list[Game], DuelTable]:
    async with sessions() as session:
        match = await session.get(Match, match_id)
        assert match is not None
        games = list(await session.scalars(select(Game).where(Game.match_id == match_id)
                                           .order_by(Game.seat)))
        table = await session.get(DuelTable, match.table_id)
        assert table is not None
        return match, games, table


def service(sessions: Sessions, clock: FakeClock) -> tuple[DuelService, list[Any]]:
    pubsub = MemoryPubSub()
    results: list[Any] = []
    original = pubsub.publish

    async def publish(channel: str, message: Any) -> None:
        if isinstance(message, MatchResult):
            results.append(message)
        await original(channel, message)

    pubsub.publish = publish  # type: ignore[method-assign]
    return DuelService(store=SqlStore(sessions), pubsub=pubsub, clock=clock), results


async def test_played_at_once_paired_later_settled_once(session_factory: Sessions) -> None:
    clock = FakeClock(float(int(time.time())))
    duels, results = service(session_factory, clock)
    ann, bob = await player(session_factory, "Ann"), await player(session_factory, "Bob")

    started = await ask(session_factory, ann)
    assert started.created and not started.paired and started.view.match is not None
    match_id = started.view.match.id
    mine = await duels.open_game(player_id=ann.id, match_id=match_id, follow=no_follow)
    assert mine.status == "playing" and mine.opponent is None  # nobody yet
    assert (await duels.act(player_id=ann.id, match_id=match_id, seq=1,
                            action={"op": "deal"})).seq == 1
    await duels.finish(player_id=ann.id, match_id=match_id, seq=2)
    await clock.advance(60)
    assert results == []  # my game is over, the match waits for its second player
    match, games, table = await match_row(session_factory, match_id)
    assert (match.status, [g.status for g in games], table.status) == (
        "playing", ["finished"], "open")

    paired = await ask(session_factory, bob)  # the next player who asks: the same match
    assert paired.paired and paired.view.match is not None
    assert paired.view.match.id == match_id
    await duels.reload(match_id)  # what the route does (app/api/routes/quick.py)
    his = await duels.open_game(player_id=bob.id, match_id=match_id, follow=no_follow)
    assert his.status == "playing" and his.opponent.status == "finished"
    assert his.seq == 0 and his.view.stock == mine.view.stock  # same deal
    # What he sees of Ann's game: her progress only, nothing of her cards.
    assert set(as_json(his)["opponent"]) <= {"player_id", "score", "runs", "actions", "status",
                                    "online", "elapsed_ms", "time_left_ms", "at_ms",
                                    "start_deadline"}
    await duels.finish(player_id=bob.id, match_id=match_id, seq=1)
    assert [r.match_id for r in results] == [match_id] * 2  # once, to each player
    assert {r.player_id for r in results[0].results} == {ann.id, bob.id}
    match, games, _ = await match_row(session_factory, match_id)
    assert match.status == "finished" and len(games) == 2
    await duels.close()


async def test_nobody_paired_in_time_the_match_lapses(session_factory: Sessions) -> None:
    clock = FakeClock(float(int(time.time())))
    duels, results = service(session_factory, clock)
    ann, cara = await player(session_factory, "Ann"), await player(session_factory, "Cara")
    started = await ask(session_factory, ann)
    assert started.view.match is not None
    match_id = started.view.match.id
    await duels.open_game(player_id=ann.id, match_id=match_id, follow=no_follow)
    await duels.finish(player_id=ann.id, match_id=match_id, seq=1)
    await clock.advance(DEADLINE - 120)
    assert results == []

    # The deadline passes (the database's time too: the table's expiry is now).
    async with session_factory() as session:
        table = await session.get(DuelTable, started.view.table.id)
        assert table is not None
        table.expires_at = utcnow() - timedelta(seconds=1)
        await session.commit()
    await clock.advance(130)
    await landed(results, 1)
    assert len(results) == 1
    (result,) = results
    assert (result.winner_id, [r.player_id for r in result.results]) == (
        None, [ann.id])
    match, games, table = await match_row(session_factory, match_id)
    assert (match.status, match.winner_id, table.status) == (LAPSED, None, "closed")
    assert games[0].rating_before is None and games[0].rating_after is None  # unrated

    # Nobody is paired into it any more: the next player starts a match of their own.
    later = await ask(session_factory, cara)
    assert later.created and later.view.match is not None and later.view.match.id != match_id
    await duels.close()


async def test_a_copy_loaded_while_waiting_seats_the_paired_player(
        session_factory: Sessions) -> None:
    """Another process paired Bob: our copy (one seat) is rebuilt when he opens his game."""
    clock = FakeClock(float(int(time.time())))
    duels, _ = service(session_factory, clock)
    ann, bob = await player(session_factory, "Ann"), await player(session_factory, "Bob")
    started = await ask(session_factory, ann)
    assert started.view.match is not None
    match_id = started.view.match.id
    await duels.open_game(player_id=ann.id, match_id=match_id, follow=no_follow)
    assert (await ask(session_factory, bob)).paired  # no reload here
    his = await duels.open_game(player_id=bob.id, match_id=match_id, follow=no_follow)
    assert his.status == "playing" and his.opponent.status == "playing"
    await duels.close()


async def test_the_sweeper_leaves_a_waiting_match_alone_until_its_deadline(
        session_factory: Sessions) -> None:
    """With several processes the sweeper ends what no process watches: a quick duel whose
    one game is over is no settlement gone wrong while it may still be paired; after its
    deadline it is overdue, and the sweep ends it without an opponent."""
    clock = FakeClock(float(int(time.time())))
    duels, results = service(session_factory, clock)
    store = SqlStore(session_factory)
    ann = await player(session_factory, "Ann")
    started = await ask(session_factory, ann)
    assert started.view.match is not None
    match_id = started.view.match.id
    await duels.open_game(player_id=ann.id, match_id=match_id, follow=no_follow)
    await duels.finish(player_id=ann.id, match_id=match_id, seq=1)
    await duels.close()  # that process is gone
    an_hour_later = clock() + 3600.0
    assert await store.overdue_match_ids(clock() + 60.0) == []
    async with session_factory() as session:
        table = await session.get(DuelTable, started.view.table.id)
        assert table is not None
        table.expires_at = utcnow() - timedelta(seconds=1)
        await session.commit()
    assert await store.overdue_match_ids(an_hour_later) == [match_id]
    clock.now = an_hour_later  # the next sweep, much later
    other, results = service(session_factory, clock)
    sweeper = OverdueSweeper(store=store, duels=other, every=5.0, clock=clock)
    assert await sweeper.sweep() == 1
    match, _, _ = await match_row(session_factory, match_id)
    assert match.status == LAPSED and [r.winner_id for r in results] == [None]
    await other.close()


async def test_two_players_asking_at_once_are_not_both_seated(session_factory: Sessions) -> None:
    ann, bob, cara = [await player(session_factory, name) for name in ("Ann", "Bob", "Cara")]
    started = await ask(session_factory, ann)
    assert started.view.match is not None
    both = await asyncio.gather(ask(session_factory, bob), ask(session_factory, cara))
    assert sorted(taken.paired for taken in both) == [False, True]
    (paired,) = [taken for taken in both if taken.paired]
    assert paired.view.match is not None and paired.view.match.id == started.view.match.id
    _, games, table = await match_row(session_factory, started.view.match.id)
    assert len(games) == 2 and table.status == "full"
