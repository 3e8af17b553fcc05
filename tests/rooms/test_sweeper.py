"""The overdue-game sweeper on SQLite and PostgreSQL: the query, and ending what nobody ends."""

import asyncio
from typing import Any

from app.db.models import Game, Match
from app.messaging.pubsub import MemoryPubSub
from app.rooms.duel import DuelService
from app.rooms.store import (
    SETTLE_GRACE_SECONDS,
    MemoryStore,
    StoredGame,
    StoredMatch,
    StoreError,
)
from app.rooms.sweeper import OverdueSweeper
from app.services.sql_store import SqlStore
from tests.services.test_sql_store import (
    Sessions,
    expire_table,
    no_follow,
    real_time_clock,
    rows,
    seated_match,
)
from tests.support.clock import FakeClock, settle


def service(sessions: Sessions, clock: FakeClock) -> DuelService:
    return DuelService(store=SqlStore(sessions), pubsub=MemoryPubSub(), clock=clock)


async def test_a_game_past_its_deadline_is_found_and_ended_once(
    session_factory: Sessions,
) -> None:
    match_id, ann, bob = await seated_match(session_factory)  # 300 s clocks
    clock = real_time_clock()
    gone = service(session_factory, clock)  # the process that served the match, then died
    await gone.open_game(player_id=ann, match_id=match_id, follow=no_follow)
    await gone.open_game(player_id=bob, match_id=match_id, follow=no_follow)
    await gone.close()
    store = SqlStore(session_factory)
    clock.now += 299
    assert await store.overdue_match_ids(clock.now) == []
    clock.now += 2
    assert await store.overdue_match_ids(clock.now) == [match_id]

    # Two processes sweep at the same moment: both games end once, the match is settled.
    one, two = service(session_factory, clock), service(session_factory, clock)
    sweepers = [OverdueSweeper(store=SqlStore(session_factory), duels=d, every=5, clock=clock)
                for d in (one, two)]
    touched = await asyncio.gather(*(s.sweep() for s in sweepers))
    assert sum(touched) >= 1
    games = await rows(session_factory, Game, match_id=match_id)
    assert {g.status for g in games} == {"timed_out"}
    assert {g.time_used_ms for g in games} == {300_000}
    [match] = await rows(session_factory, Match, id=match_id)
    assert match.status == "finished"
    assert await store.overdue_match_ids(clock.now) == []
    for duels in (one, two):
        await duels.close()


async def test_an_expired_table_with_a_game_nobody_opened_is_found(
    session_factory: Sessions,
) -> None:
    match_id, _, _ = await seated_match(session_factory)
    clock = real_time_clock()
    await expire_table(session_factory, match_id, at=clock.now + 60)
    store = SqlStore(session_factory)
    assert await store.overdue_match_ids(clock.now) == []  # nobody opened, table still open
    clock.now += 61
    assert await store.overdue_match_ids(clock.now) == [match_id]
    duels = service(session_factory, clock)
    await OverdueSweeper(store=store, duels=duels, every=5, clock=clock).sweep()
    for _ in range(100):  # the expiry task ends the unopened games at once
        [row] = await rows(session_factory, Match, id=match_id)
        if row.status == "finished":
            break
        await asyncio.sleep(0.05)
    games = await rows(session_factory, Game, match_id=match_id)
    assert {g.status for g in games} == {"timed_out"}
    await duels.close()


async def test_the_memory_store_answers_the_same_question() -> None:
    store = MemoryStore()
    store.add_match(StoredMatch(1, {}, 300.0, [StoredGame(1, 1, started_at=1000.0),
                                               StoredGame(2, 2)], expires_at=5000.0))
    store.add_match(StoredMatch(2, {}, 300.0, [StoredGame(3, 1), StoredGame(4, 2)],
                                expires_at=2000.0))
    assert await store.overdue_match_ids(1299.0) == []
    assert await store.overdue_match_ids(1300.0) == [1]
    assert await store.overdue_match_ids(2000.0) == [1, 2]
    store.matches[1].games[0].ended_at = 1300.0
    assert await store.overdue_match_ids(2000.0) == [2]
    store.matches[2].games[0].ended_at = store.matches[2].games[1].ended_at = 2000.0
    assert await store.overdue_match_ids(2000.0) == []  # settling is its last ender's job
    assert await store.overdue_match_ids(2000.0 + SETTLE_GRACE_SECONDS) == [2]


async def test_a_match_whose_settlement_failed_is_settled_by_the_sweeper(
    session_factory: Sessions,
) -> None:
    match_id, ann, bob = await seated_match(session_factory)
    clock = real_time_clock()

    class SettlingFails(SqlStore):
        async def finish_match(self, match_id: int, outcomes: Any) -> Any:
            raise StoreError("the database went away at the very end")

    duels = DuelService(store=SettlingFails(session_factory), pubsub=MemoryPubSub(),
                        clock=clock)
    for player in (ann, bob):
        await duels.open_game(player_id=player, match_id=match_id, follow=no_follow)
        await duels.finish(player_id=player, match_id=match_id, seq=1)
    await duels.close()
    [match] = await rows(session_factory, Match, id=match_id)
    assert match.status == "playing"  # both games over, the match not settled
    store = SqlStore(session_factory)
    assert await store.overdue_match_ids(clock.now + SETTLE_GRACE_SECONDS - 1) == []
    clock.now += SETTLE_GRACE_SECONDS + 1
    assert await store.overdue_match_ids(clock.now) == [match_id]
    again = service(session_factory, clock)
    await OverdueSweeper(store=store, duels=again, every=5, clock=clock).sweep()
    [match] = await rows(session_factory, Match, id=match_id)
    assert match.status == "finished"
    await again.close()


async def test_the_sweeper_sweeps_once_a_period_on_its_clock_and_outlives_a_failure() -> None:
    clock = FakeClock()
    asked: list[float] = []

    class AwayAtFirst(MemoryStore):
        async def overdue_match_ids(self, now: float, limit: int = 100) -> list[int]:
            asked.append(now)
            if len(asked) == 1:
                raise StoreError("the database is away")
            return await super().overdue_match_ids(now, limit)

    duels = DuelService(store=MemoryStore(), pubsub=MemoryPubSub(), clock=clock)
    sweeper = OverdueSweeper(store=AwayAtFirst(), duels=duels, every=10, clock=clock)
    started = clock.now
    sweeper.start()
    await settle()  # it waits on the clock from now
    await clock.advance(7)  # less than the shortest jittered period (7.5 s)
    assert asked == []
    for _ in range(80):  # 40 s in half seconds: the first sweep fails, the loop goes on
        await clock.advance(0.5)
        if len(asked) == 3:
            break
    await sweeper.stop()
    gaps = [later - earlier for earlier, later in zip([started, *asked], asked, strict=False)]
    assert len(asked) == 3 and all(7.5 <= gap <= 13 for gap in gaps), gaps
    await duels.close()
