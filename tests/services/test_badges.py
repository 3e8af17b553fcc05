"""Each badge earned from a real action sequence through the services, and a near miss.

Games are played through ``SoloPlay`` as the WebSocket plays them; the badge listener
hears the settled event. Totals that take many games (100 wins, 30 days) are stored as
the service stores them, and the deciding game is played for real.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.solo_models import PlayerBadge, SoloGame
from app.engine.actions import Action, Undo
from app.engine.daily import daily_deal
from app.engine.deal import deal
from app.engine.rules import preset
from app.engine.solver import solve
from app.engine.solver.solvable import solvable_deal
from app.rewards.badges import (
    DAILIES_PLAYED_GOAL,
    LEAN_WIN_ACTIONS,
    MONTH_STREAK,
    QUICK_WIN_MS,
    SOLO_WINS_GOAL,
)
from app.rewards.solo import SoloOptions, SoloStart, solo_start
from app.services.badges import held_badges
from app.services.solo_play import SoloPlay
from tests.support.frames import kind
from tests.support.solo import T0, FakeClock, Outside, add_player, make_play

ALL_SOLO_WIN_BADGES = {"first_win", "no_undo", "quick", "lean", "on_my_own"}


@dataclass
class Bench:
    sessions: async_sessionmaker[AsyncSession]
    play: SoloPlay
    clock: FakeClock
    outside: Outside
    player: int

    answered: list[dict] = field(default_factory=list)  # type: ignore[type-arg]

    async def play_line(self, game_id: int, line: list[Action], *, seconds: float = 1.0,
                        hints: int = 0) -> None:
        await self.play.open(player_id=self.player, game_id=game_id)
        for _ in range(hints):
            await self.play.hint(player_id=self.player, game_id=game_id)
        for seq, action in enumerate(line, start=1):
            self.clock.advance(seconds=seconds)
            [answer, *more] = await self.play.act(player_id=self.player, game_id=game_id,
                                                  seq=seq, action=action.to_json())
            assert kind(answer) == "solo_ack", answer
            self.answered.extend(more)

    async def win(self, start: SoloStart, line: list[Action], **how: float) -> int:
        game_id = (await self.play.create(player_id=self.player, start=start)).game.id
        await self.play_line(game_id, line, **how)  # type: ignore[arg-type]
        return game_id

    async def win_daily(self, line: list[Action] | None = None, **how: float) -> int:
        day = self.clock.now.date()
        game, _ = await self.play.start_daily(player_id=self.player)
        await self.play_line(game.id, line or list(daily_deal(day).solution), **how)  # type: ignore[arg-type]
        return game.id

    async def codes(self) -> set[str]:
        async with self.sessions() as session:
            return {b.code for b in await held_badges(session=session, player_id=self.player)}

    def announced(self) -> list[str]:
        """Badge frames: after a WebSocket answer, or published (an end by REST)."""
        frames = [*self.answered, *(frame for _, frame in self.outside.frames)]
        return [frame.badge.code for frame in frames if kind(frame) == "badge"]


@pytest.fixture
async def bench(session_factory: async_sessionmaker[AsyncSession]) -> AsyncIterator[Bench]:
    clock, outside = FakeClock(), Outside()
    play = make_play(session_factory, clock, outside)
    yield Bench(session_factory, play, clock, outside,
                await add_player(session_factory, "Ann"))


# Deals 7 and 8: once the stock is empty and every card is face up, the server asks the
# solver after each action whether to offer the auto-complete; along the lines of deals
# 7 and 8 that takes ~0.04 s in all, along those of deals 1 and 2 ~10-20 s (every test
# here played one or two of them; 36 s for the random deal 1). Badges are the subject
# here, not the solver.
QUICK_FINISH, OTHER_QUICK_FINISH = 7, 8


def one_suit_line(number: int = QUICK_FINISH) -> tuple[SoloStart, list[Action]]:
    return solo_start(number, SoloOptions(1)), list(solvable_deal(number, 1).solution)


def with_undos(line: list[Action], pairs: int) -> list[Action]:
    """The same win with ``pairs`` extra (action, undo) pairs at the start."""
    return [a for _ in range(pairs) for a in (line[0], Undo())] + line


async def test_a_plain_quick_win_earns_the_solo_win_badges_once(bench: Bench) -> None:
    start, line = one_suit_line()
    game_id = await bench.win(start, line)  # 112 actions, 1 s each: quick, lean, no undo
    assert await bench.codes() == ALL_SOLO_WIN_BADGES
    assert sorted(bench.announced()) == sorted(ALL_SOLO_WIN_BADGES)
    async with bench.sessions() as session:
        rows = list(await session.scalars(select(PlayerBadge)))
        assert {r.solo_game_id for r in rows} == {game_id}
        game = await session.get(SoloGame, game_id)
        assert game is not None and {r.earned_at for r in rows} == {game.ended_at}
    await bench.win(*one_suit_line(OTHER_QUICK_FINISH))  # a second win earns nothing again
    assert len(bench.announced()) == len(ALL_SOLO_WIN_BADGES)


async def test_near_misses_of_the_solo_win_badges(bench: Bench) -> None:
    start, line = one_suit_line()
    abandoned = await bench.play.create(player_id=bench.player, start=start)
    await bench.play.abandon(player_id=bench.player, game_id=abandoned.game.id)
    assert await bench.codes() == set()  # an abandoned game earns nothing
    slow_and_long = with_undos(line, 20)  # 152 actions, 20 undos, 2 s each: 304 s
    assert len(slow_and_long) > LEAN_WIN_ACTIONS and len(slow_and_long) * 2 > QUICK_WIN_MS / 1000
    await bench.win(start, slow_and_long, seconds=2.0, hints=1)
    assert await bench.codes() == {"first_win"}  # not quick, lean, no_undo nor on_my_own


async def test_a_game_won_by_rescues_earns_a_win_but_not_the_skill_badges(
        bench: Bench) -> None:
    """Rescue after rescue to the end, in a minute: quick, lean and no undo were earned by
    the solver (found on the running product); only the win counts now."""
    start, _ = one_suit_line()
    game_id = (await bench.play.create(player_id=bench.player, start=start)).game.id
    await bench.play.open(player_id=bench.player, game_id=game_id)
    seq, status = 1, "playing"
    for _ in range(60):
        bench.clock.advance(seconds=1.0)
        [answer, *more] = await bench.play.rescue(player_id=bench.player, game_id=game_id,
                                                  seq=seq)
        bench.answered.extend(more)
        if kind(answer) == "solo_reject" or not answer.steps:
            break
        seq, status = answer.seq + 1, answer.status
        if status != "playing" or answer.auto_complete:
            break
    if status == "playing":
        [answer, *more] = await bench.play.auto_complete(player_id=bench.player,
                                                         game_id=game_id, seq=seq)
        bench.answered.extend(more)
    async with bench.sessions() as session:
        game = await session.get(SoloGame, game_id)
        assert game is not None and game.status == "won" and game.rescues >= 10
        assert game.undos == 0 and game.actions_count <= 150 and game.elapsed_ms < 300_000
    assert await bench.codes() == {"first_win"}
    assert bench.announced() == ["first_win"]


async def test_two_suits_from_the_daily_and_wild_deal_from_a_random_deal(bench: Bench) -> None:
    await bench.win(*one_suit_line())
    assert not {"two_suits", "wild_deal"} & await bench.codes()
    await bench.win_daily()
    assert "two_suits" in await bench.codes()
    wild = solo_start(OTHER_QUICK_FINISH, SoloOptions(1, solvable_only=False))
    line = list(solve(deal(OTHER_QUICK_FINISH, preset("classic", 1)), nodes=20_000).actions)
    await bench.win(wild, line)
    assert "wild_deal" in await bench.codes()


async def test_four_suits(bench: Bench) -> None:
    start = solo_start(3, SoloOptions(4))
    await bench.win(start, list(solvable_deal(3, 4).solution), seconds=0.1)
    assert "four_suits" in await bench.codes()


async def test_centurion_at_the_hundredth_win(bench: Bench) -> None:
    async with bench.sessions() as session:
        session.add_all(stored_win(bench.player, bench.clock.now - timedelta(days=1))
                        for _ in range(SOLO_WINS_GOAL - 2))
        await session.commit()
    await bench.win(*one_suit_line(), seconds=100)  # the 99th: not yet
    assert "centurion" not in await bench.codes()
    await bench.win(*one_suit_line(OTHER_QUICK_FINISH), seconds=100)
    assert "centurion" in await bench.codes()


async def test_regular_week_and_month_streaks_from_daily_deals(bench: Bench) -> None:
    async with bench.sessions() as session:
        session.add_all(stored_daily(bench.player, T0 - timedelta(days=d))
                        for d in range(MONTH_STREAK - 1, 0, -1))
        await session.commit()
    # Days D-29 … D-1 are won; a broken day in the middle keeps the best below a month.
    async with bench.sessions() as session:
        broken = (await session.scalars(select(SoloGame).where(
            SoloGame.daily_date == (T0 - timedelta(days=10)).date()))).one()
        broken.status, broken.points = "abandoned", None
        await session.commit()
    await bench.win_daily()
    codes = await bench.codes()
    assert {"regular", "week_streak", "two_suits"} <= codes and "month_streak" not in codes
    # The day after: won too, yet the best run is 10 + 1; mend the broken day, win again.
    async with bench.sessions() as session:
        broken = await session.get(SoloGame, broken.id)
        assert broken is not None
        broken.status, broken.points = "won", 1000
        await session.commit()
    bench.clock.advance(days=1)
    await bench.win_daily()
    assert "month_streak" in await bench.codes()


async def test_regular_needs_seven_dailies_played(bench: Bench) -> None:
    async with bench.sessions() as session:
        session.add_all(stored_daily(bench.player, T0 - timedelta(days=2 * d), won=False)
                        for d in range(1, DAILIES_PLAYED_GOAL - 1))
        await session.commit()
    game, _ = await bench.play.start_daily(player_id=bench.player)
    await bench.play.abandon(player_id=bench.player, game_id=game.id)
    assert await bench.codes() == set()  # 6 played
    bench.clock.advance(days=1)
    game, _ = await bench.play.start_daily(player_id=bench.player)
    await bench.play.abandon(player_id=bench.player, game_id=game.id)  # abandoned counts
    assert await bench.codes() == {"regular"}


def stored_win(player_id: int, at: datetime) -> SoloGame:
    return SoloGame(player_id=player_id, kind="solo", number=1, suits=1, solvable_only=True,
                    relaxed=False, source_deal=1, generator_version=1, mapping_version=1,
                    status="won", created_at=at, started_at=at, ended_at=at,
                    actions_count=130, undos=3, hints=0, rescues=0, auto_completed=False,
                    score=500, elapsed_ms=600_000, points=1500)


def stored_daily(player_id: int, at: datetime, *, won: bool = True) -> SoloGame:
    day = at.date()
    return SoloGame(player_id=player_id, kind="daily", number=1, suits=2, solvable_only=True,
                    relaxed=False, source_deal=1, generator_version=1, mapping_version=1,
                    daily_date=day, status="won" if won else "abandoned", created_at=at,
                    started_at=at, ended_at=at, actions_count=300, undos=3, hints=0,
                    rescues=0, auto_completed=False, score=500, elapsed_ms=900_000,
                    points=2000 if won else None)


async def test_a_failing_badge_rule_never_undoes_the_win(
    bench: Bench, monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def broken(session: AsyncSession, game_id: int) -> None:
        raise RuntimeError("a bug in a badge rule")

    monkeypatch.setattr("app.services.badges.solo_facts", broken)
    start, line = one_suit_line()
    game_id = await bench.win(start, line)
    async with bench.sessions() as session:
        game = await session.get(SoloGame, game_id)
        assert game is not None and game.status == "won" and game.points
    assert await bench.codes() == set()
    monkeypatch.undo()
    await bench.win(*one_suit_line(OTHER_QUICK_FINISH))  # every rule is checked again
    assert "first_win" in await bench.codes()
