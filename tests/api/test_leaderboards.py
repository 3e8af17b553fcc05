"""Solo leaderboards and player stats over REST, on games stored as the service stores them."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.solo_models import DailyStreak, SoloGame
from tests.support.api import assert_problem, signup
from tests.support.solo import T0, FakeClock

# T0 is Tuesday 2026-03-10 18:00 UTC: its week began on Monday 2026-03-09.
LAST_WEEK = T0 - timedelta(days=3)


def won(player_id: int, *, suits: int, points: int, at: datetime, elapsed_ms: int = 60_000,
        kind: str = "solo") -> SoloGame:
    return SoloGame(
        player_id=player_id, kind=kind, number=1, suits=suits, solvable_only=True,
        relaxed=False, source_deal=1, generator_version=1, mapping_version=1,
        daily_date=at.date() if kind == "daily" else None, status="won",
        created_at=at - timedelta(milliseconds=elapsed_ms),
        started_at=at - timedelta(milliseconds=elapsed_ms), ended_at=at, actions_count=100,
        undos=0, hints=0, rescues=0, auto_completed=False, score=500, elapsed_ms=elapsed_ms,
        points=points)


def abandoned(player_id: int, *, suits: int, at: datetime) -> SoloGame:
    return SoloGame(
        player_id=player_id, kind="solo", number=2, suits=suits, solvable_only=False,
        relaxed=False, source_deal=2, generator_version=1, status="abandoned", created_at=at,
        ended_at=at, actions_count=3, undos=0, hints=0, rescues=0, auto_completed=False,
        score=497)


async def test_points_boards_rank_ties_periods_and_pages(
    client: httpx.AsyncClient, app: FastAPI,
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    app.state.solo.clock = FakeClock()
    ann, bob, cat, dan = [await signup(client, n) for n in ("Ann", "Bob", "Cat", "Dan")]
    async with session_factory() as session:
        session.add_all([
            won(ann.id, suits=1, points=3000, at=T0),
            won(bob.id, suits=1, points=1000, at=LAST_WEEK),
            won(bob.id, suits=1, points=2000, at=T0),          # Bob 3000 from 2 wins
            won(cat.id, suits=1, points=1500, at=LAST_WEEK),
            won(dan.id, suits=2, points=2500, at=T0, kind="daily"),  # dailies count too
            abandoned(dan.id, suits=1, at=T0),
        ])
        await session.commit()
    board = (await client.get("/api/leaderboards/solo?suits=1")).json()
    assert board["total"] == 3
    assert [(e["rank"], e["name"], e["points"], e["wins"]) for e in board["items"]] == [
        (1, ann.name, 3000, 1), (1, bob.name, 3000, 2), (3, cat.name, 1500, 1)]
    week = (await client.get("/api/leaderboards/solo?suits=1&period=week")).json()
    assert [(e["rank"], e["name"], e["points"]) for e in week["items"]] == [
        (1, ann.name, 3000), (2, bob.name, 2000)]
    page = (await client.get("/api/leaderboards/solo?suits=1&page=2&page_size=2")).json()
    assert [e["name"] for e in page["items"]] == [cat.name] and page["total"] == 3
    two = (await client.get("/api/leaderboards/solo?suits=2")).json()
    assert [(e["name"], e["points"]) for e in two["items"]] == [(dan.name, 2500)]
    assert (await client.get("/api/leaderboards/solo?suits=4")).json()["total"] == 0
    assert_problem(await client.get("/api/leaderboards/solo?suits=3"), 422)
    assert_problem(await client.get("/api/leaderboards/solo?suits=1&period=year"), 422)
    assert_problem(await client.get("/api/leaderboards/solo"), 422)

    info = (await client.get(f"/api/players/{bob.id}")).json()
    assert info["solo"] == [
        {"suits": 1, "games": 2, "wins": 2, "best_time_ms": 60000, "best_points": 2000,
         "points": 3000, "points_week": 2000},
        {"suits": 2, "games": 0, "wins": 0, "best_time_ms": None, "best_points": None,
         "points": 0, "points_week": 0},
        {"suits": 4, "games": 0, "wins": 0, "best_time_ms": None, "best_points": None,
         "points": 0, "points_week": 0},
    ]
    dan_info = (await client.get(f"/api/players/{dan.id}", headers=dan.auth)).json()
    assert dan_info["solo"][0]["games"] == 1 and dan_info["solo"][0]["wins"] == 0
    assert dan_info["daily"]["played"] == 1 and dan_info["daily"]["won"] == 1
    assert dan_info["daily"]["current_streak"] == 1
    assert dan_info["daily"]["last_won"] == T0.date().isoformat()
    assert dan_info["badges"] == 0 and "rating" not in dan_info  # duel fields unchanged
    assert {"won", "lost", "ratings"} <= set(dan_info)


async def test_streak_board_orders_by_current_or_best(
    client: httpx.AsyncClient, app: FastAPI,
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    app.state.solo.clock = FakeClock()
    today = T0.date()
    ann, bob, cat = [await signup(client, n) for n in ("Ann", "Bob", "Cat")]
    async with session_factory() as session:
        session.add_all([
            DailyStreak(player_id=ann.id, run=3, best=3, last_won=today),
            DailyStreak(player_id=bob.id, run=5, best=9, last_won=today - timedelta(days=1)),
            DailyStreak(player_id=cat.id, run=4, best=4, last_won=date(2026, 1, 1)),
        ])
        await session.commit()
    current = (await client.get("/api/leaderboards/daily-streaks")).json()
    assert [(e["rank"], e["name"], e["current"], e["best"]) for e in current["items"]] == [
        (1, bob.name, 5, 9), (2, ann.name, 3, 3)]
    best = (await client.get("/api/leaderboards/daily-streaks?order=best")).json()
    assert [(e["rank"], e["name"], e["current"]) for e in best["items"]] == [
        (1, bob.name, 5), (2, cat.name, 0), (3, ann.name, 3)]
    assert best["total"] == 3
    assert_problem(await client.get("/api/leaderboards/daily-streaks?order=worst"), 422)
