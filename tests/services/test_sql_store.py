"""The duel service on the database store, on SQLite and PostgreSQL: log, clocks, result."""

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import DuelTable, Game, GameAction, Match
from app.messaging.pubsub import MemoryPubSub
from app.rooms.duel import DuelService
from app.rooms.store import StoreError
from app.services import sql_store
from app.services.players import create_player
from app.services.sql_store import SqlStore
from app.services.tables import TableSettings, create_table, join_table
from tests.support.clock import FakeClock
from tests.support.duel_layouts import WINNING_LINE, near_finished_layout
from tests.support.frames import kind
from tests.support.layout_route import set_test_layout

Sessions = async_sessionmaker[AsyncSession]


def real_time_clock() -> FakeClock:
    """Starts at the real time (tables expire a day after creation), then moves by hand."""
    return FakeClock(float(int(time.time())))


async def no_follow(channel: str) -> None:
    return None


async def seated_match(sessions: Sessions) -> tuple[int, int, int]:
    async with sessions() as session:
        ann = (await create_player(session=session, name="Ann", secret_key="k")).player
        bob = (await create_player(session=session, name="Bob", secret_key="k")).player
        view = await create_table(session=session, owner=ann, ttl_seconds=3600,
                                  settings=TableSettings(suits=1, time_limit_seconds=300))
        joined = await join_table(session=session, table_id=view.table.id, player=bob)
        assert joined.match is not None
        match_id = joined.match.id
        await set_test_layout(session=session, match_id=match_id, player_id=ann.id,
                              layout=near_finished_layout())
        return match_id, ann.id, bob.id


async def expire_table(sessions: Sessions, match_id: int, *, at: float) -> None:
    """Set the expiry of the match's table (games nobody opened by then time out)."""
    async with sessions() as session:
        match = await session.get(Match, match_id)
        assert match is not None
        table = await session.get(DuelTable, match.table_id)
        assert table is not None
        table.expires_at = datetime.fromtimestamp(at, UTC)
        await session.commit()


async def rows(sessions: Sessions, model: Any, **where: Any) -> list[Any]:
    async with sessions() as session:
        query = select(model).filter_by(**where)
        return list(await session.scalars(query))


async def test_a_duel_is_logged_settled_and_rebuilt(session_factory: Sessions) -> None:
    match_id, ann, bob = await seated_match(session_factory)
    clock = real_time_clock()
    duels = DuelService(store=SqlStore(session_factory), pubsub=MemoryPubSub(), clock=clock)
    await duels.open_game(player_id=ann, match_id=match_id, follow=no_follow)
    for seq, action in enumerate(WINNING_LINE[:6], start=1):
        reply = await duels.act(player_id=ann, match_id=match_id, seq=seq, action=action)
        assert kind(reply) == "ack"
    games = {g.player_id: g for g in await rows(session_factory, Game, match_id=match_id)}
    logged = await rows(session_factory, GameAction, game_id=games[ann].id)
    assert [(a.seq, a.action) for a in logged] == list(enumerate(WINNING_LINE[:6], start=1))
    # The totals are on the log while the game is played (the games row is not written).
    assert [(a.actions_count, a.score) for a in logged][-1] == (6, reply.score)
    assert (games[ann].actions_count, games[ann].score) == (0, 0)
    assert games[ann].started_at is not None and games[bob].started_at is None
    await duels.close()

    clock.now += 30
    again = DuelService(store=SqlStore(session_factory), pubsub=MemoryPubSub(), clock=clock)
    assert await again.restore() == 1
    snap = await again.open_game(player_id=ann, match_id=match_id, follow=no_follow)
    assert snap.seq == 6 and snap.time_left_ms == 270_000
    for seq, action in enumerate(WINNING_LINE[6:], start=7):
        reply = await again.act(player_id=ann, match_id=match_id, seq=seq, action=action)
    assert reply.status == "won"
    await again.open_game(player_id=bob, match_id=match_id, follow=no_follow)
    # Bob plays nothing until his clock has run out: the game's natural end, rated
    # however short (docs/ratings.md); his late Finish is refused.
    clock.now += 301
    await again.finish(player_id=bob, match_id=match_id, seq=1)

    [match] = await rows(session_factory, Match, id=match_id)
    assert match.status == "finished" and match.winner_id == ann
    games = {g.player_id: g for g in await rows(session_factory, Game, match_id=match_id)}
    assert (games[ann].status, games[bob].status) == ("won", "timed_out")
    assert games[ann].rating_after is not None and games[ann].rating_after > 1500
    result = again.result(match_id)
    assert result is not None and result.winner_id == ann
    await again.close()


async def test_a_match_loads_in_three_statements_whatever_its_games(
        session_factory: Sessions) -> None:
    """A worker taking over a crashed worker's matches loads each from the log: the match
    with its table, its games with their players, all the games' actions. It took 2 + 2
    per game statements, one round trip each (most of a takeover's CPU)."""
    match_id, ann, bob = await seated_match(session_factory)
    clock = real_time_clock()
    duels = DuelService(store=SqlStore(session_factory), pubsub=MemoryPubSub(), clock=clock)
    for player in (ann, bob):
        await duels.open_game(player_id=player, match_id=match_id, follow=no_follow)
    for seq, action in enumerate(WINNING_LINE[:3], start=1):
        assert (await duels.act(player_id=ann, match_id=match_id, seq=seq,
                                action=action)).seq == seq
    await duels.close()

    statements: list[str] = []
    engine = session_factory.kw["bind"].sync_engine

    def seen(conn: object, cursor: object, statement: str, *rest: object) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        loaded = await SqlStore(session_factory).load_match(match_id)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert loaded is not None
    assert [(g.player_id, g.name, len(g.actions)) for g in loaded.games] == [
        (ann, "Ann", 3), (bob, "Bob", 0)]
    assert [a.action for a in loaded.games[0].actions] == WINNING_LINE[:3]
    assert len(statements) == 3, statements


async def test_a_game_that_ran_out_while_the_server_was_down_ends_at_its_deadline(
    session_factory: Sessions,
) -> None:
    match_id, ann, bob = await seated_match(session_factory)
    clock = real_time_clock()
    first = DuelService(store=SqlStore(session_factory), pubsub=MemoryPubSub(), clock=clock)
    await first.open_game(player_id=ann, match_id=match_id, follow=no_follow)
    await first.act(player_id=ann, match_id=match_id, seq=1, action=WINNING_LINE[0])
    await first.close()

    clock.now += 10_000
    second = DuelService(store=SqlStore(session_factory), pubsub=MemoryPubSub(), clock=clock)
    await second.restore()
    games = {g.player_id: g for g in await rows(session_factory, Game, match_id=match_id)}
    assert games[ann].status == "timed_out" and games[ann].time_used_ms == 300_000
    assert games[ann].ended_at is not None and games[ann].started_at is not None
    assert (games[ann].ended_at - games[ann].started_at).total_seconds() == pytest.approx(300)
    # The table (3,600 s) expired while the server was down too: Bob never opened his game,
    # so the restore ends it as well (not one loop turn later on the table's timer): he
    # did not start (stored as a time-out of a game never opened).
    assert games[bob].status == "timed_out" and games[bob].started_at is None
    await second.close()


async def test_the_tables_expiry_ends_games_nobody_opened(session_factory: Sessions) -> None:
    match_id, ann, bob = await seated_match(session_factory)
    clock = real_time_clock()
    await expire_table(session_factory, match_id, at=clock.now + 60)
    duels = DuelService(store=SqlStore(session_factory), pubsub=MemoryPubSub(), clock=clock)
    await duels.open_game(player_id=ann, match_id=match_id, follow=no_follow)
    await duels.finish(player_id=ann, match_id=match_id, seq=1)
    await duels.close()

    clock.now += 120  # the table expired while Bob never came
    again = DuelService(store=SqlStore(session_factory), pubsub=MemoryPubSub(), clock=clock)
    await again.restore()
    for _ in range(100):  # the expiry task runs at once; give it a moment to settle
        [match] = await rows(session_factory, Match, id=match_id)
        if match.status == "finished":
            break
        await asyncio.sleep(0.05)
    games = {g.player_id: g for g in await rows(session_factory, Game, match_id=match_id)}
    assert games[bob].status == "timed_out" and games[bob].started_at is None
    assert games[bob].time_used_ms == 300_000  # the whole limit: Ann wins the tie on time
    assert match.status == "finished" and match.winner_id == ann
    await again.close()


async def test_the_start_window_ends_a_game_never_opened_and_the_sweeper_finds_it(
        session_factory: Sessions) -> None:
    match_id, ann, bob = await seated_match(session_factory)
    store = SqlStore(session_factory, start_window_s=90)
    stored = await store.load_match(match_id)
    assert stored is not None and stored.start_by is not None
    assert stored.start_by == pytest.approx(time.time() + 90, abs=5)  # made just now
    assert [g.name for g in stored.games] == ["Ann", "Bob"]  # names for the result
    clock = real_time_clock()
    assert await store.overdue_match_ids(clock.now + 60) == []
    assert await store.overdue_match_ids(clock.now + 100) == [match_id]  # unopened, late
    duels = DuelService(store=store, pubsub=MemoryPubSub(), clock=clock)
    await duels.open_game(player_id=ann, match_id=match_id, follow=no_follow)
    clock.now += 100
    await duels.reload(match_id)  # the sweeper's call
    games = {g.player_id: g for g in await rows(session_factory, Game, match_id=match_id)}
    assert games[bob].status == "timed_out" and games[bob].started_at is None
    assert (await duels.match(match_id)).game_of(bob).status == "did_not_start"
    await duels.close()


async def test_set_deal_keeps_the_stored_deal_and_answers_it(session_factory: Sessions) -> None:
    # Every match has its deal from the start: set_deal is no error, it names that deal.
    match_id, _, _ = await seated_match(session_factory)
    store = SqlStore(session_factory)
    kept = await store.set_deal(match_id, {"number": 99, "generator": 1})
    loaded = await store.load_match(match_id)
    assert loaded is not None and kept == loaded.deal
    assert kept["layout"] == near_finished_layout() and kept.get("number") != 99
    with pytest.raises(StoreError):
        await store.set_deal(987_654, {"number": 1, "generator": 1})


async def test_a_read_cut_under_it_is_tried_again_and_a_lasting_outage_is_a_store_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sql_store, "READ_RETRY_DELAYS", (0.0, 0.0))
    calls: list[int] = []

    async def cut_once() -> str:
        calls.append(1)
        if len(calls) == 1:  # a terminated backend: the pool drops it, the next is fresh
            raise OperationalError("SELECT 1", {}, ConnectionError("terminated"))
        return "read"

    assert await sql_store._read(cut_once) == "read" and len(calls) == 2

    async def away() -> str:
        calls.append(1)
        raise InterfaceError("SELECT 1", {}, ConnectionError("refused"))

    calls.clear()
    with pytest.raises(StoreError, match="InterfaceError"):
        await sql_store._read(away)
    assert len(calls) == 3  # the first try and one per pause
