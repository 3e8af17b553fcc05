"""The daily deal over REST: one attempt a day, expiry, the board, streaks."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.solo_models import DailyStreak
from app.engine.daily import daily_deal, daily_deal_number
from app.rewards.streaks import daily_streak
from app.services import daily
from app.services.solo_play import SoloPlay
from tests.support.api import User, assert_problem, signup
from tests.support.frames import as_json, kind
from tests.support.solo import T0, FakeClock


def clocked(app: FastAPI) -> FakeClock:
    clock = FakeClock()
    app.state.solo.clock = clock
    return clock


async def play_daily(app: FastAPI, user: User, game_id: int, clock: FakeClock, *,
                     seconds_per_action: float = 1.0, stop: int | None = None) -> None:
    """Open the daily game and play its verified win (up to ``stop`` actions)."""
    play: SoloPlay = app.state.solo
    game = await play.open(player_id=user.id, game_id=game_id)
    line = daily_deal(date.fromisoformat(as_json(game[0])["daily_date"])).solution
    for seq, action in enumerate(line[:stop], start=1):
        clock.advance(seconds=seconds_per_action)
        [answer, *_] = await play.act(player_id=user.id, game_id=game_id, seq=seq,
                                      action=action.to_json())
        assert kind(answer) == "solo_ack", answer


async def test_one_attempt_a_day_and_the_number_hidden_until_over(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    clock = clocked(app)
    ann = await signup(client, "Ann")
    created = await client.post("/api/daily/start", headers=ann.auth)
    assert created.status_code == 201, created.text
    game = created.json()
    assert game["kind"] == "daily" and game["daily_date"] == T0.date().isoformat()
    assert game["number"] is None and game["source_deal"] is None
    assert game["options"] == {"suits": 2, "solvable_only": True, "relaxed": False}
    again = await client.post("/api/daily/start", headers=ann.auth)
    assert again.status_code == 200 and again.json()["id"] == game["id"]
    today = (await client.get("/api/daily", headers=ann.auth)).json()
    assert today["my_game"]["id"] == game["id"] and today["board_visible"] is False
    # In progress: playing, not yet played.
    assert (today["players"], today["winners"], today["playing"]) == (0, 0, 1)
    assert str(daily_deal_number(T0.date())) not in str(today)
    assert_problem(await client.get(f"/api/daily/{T0.date()}/board", headers=ann.auth), 403,
                   "daily_not_finished")

    # Starting a solo game never touches the daily.
    solo = await client.post("/api/solo/games", headers=ann.auth,
                             json={"number": 5, "options": {"suits": 1}})
    assert solo.json()["abandoned_game_id"] is None

    gave_up = await client.post(f"/api/solo/games/{game['id']}/abandon", headers=ann.auth)
    assert gave_up.json()["number"] == daily_deal_number(T0.date())
    refused = assert_problem(await client.post("/api/daily/start", headers=ann.auth), 409,
                             "daily_already_played")
    assert refused["game_id"] == game["id"]
    today = (await client.get("/api/daily", headers=ann.auth)).json()
    assert today["board_visible"] is True and today["streak"]["current"] == 0
    board = await client.get(f"/api/daily/{T0.date()}/board", headers=ann.auth)
    assert board.status_code == 200 and board.json()["total"] == 0

    # Tomorrow is a new day.
    clock.advance(days=1)
    assert (await client.post("/api/daily/start", headers=ann.auth)).status_code == 201


async def test_a_daily_left_open_expires_at_the_end_of_the_next_day(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    clock = clocked(app)
    ann = await signup(client, "Ann")
    game = (await client.post("/api/daily/start", headers=ann.auth)).json()
    await app.state.solo.open(player_id=ann.id, game_id=game["id"])
    clock.now = T0.replace(hour=0, minute=0) + timedelta(days=2) - timedelta(seconds=1)
    still = (await client.get(f"/api/solo/games/{game['id']}", headers=ann.auth)).json()
    assert still["status"] == "playing"
    clock.advance(seconds=1)
    over = (await client.get(f"/api/solo/games/{game['id']}", headers=ann.auth)).json()
    assert over["status"] == "expired" and over["points"] is None
    assert over["ended_at"].startswith((T0.date() + timedelta(days=2)).isoformat())
    frames = await app.state.solo.act(player_id=ann.id, game_id=game["id"], seq=1,
                                      action={"op": "deal"})
    assert as_json(frames[0])["code"] == "game_over"


async def test_the_board_ranks_wins_and_streaks_follow_the_days(
    client: httpx.AsyncClient, app: FastAPI,
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    clock = clocked(app)
    ann = await signup(client, "Ann")
    bob = await signup(client, "Bob")
    cat = await signup(client, "Cat")
    day = T0.date()
    for user, pace in ((ann, 2.0), (bob, 1.0), (cat, 1.0)):
        clock.now = T0
        game = (await client.post("/api/daily/start", headers=user.auth)).json()
        await play_daily(app, user, game["id"], clock, seconds_per_action=pace)
    board = (await client.get(f"/api/daily/{day}/board", headers=ann.auth)).json()
    assert board["total"] == 3
    assert [(e["rank"], e["name"]) for e in board["items"]] == [
        (1, bob.name), (1, cat.name), (3, ann.name)]  # Bob and Cat tie on time and actions
    paged = (await client.get(f"/api/daily/{day}/board?page=2&page_size=2",
                              headers=cat.auth)).json()
    assert [(e["rank"], e["name"]) for e in paged["items"]] == [(3, ann.name)]
    # Each winner's own rank comes with today's daily, the board's rank (the 3rd is on page 2).
    ranks = [(await client.get("/api/daily", headers=u.auth)).json()["my_rank"]
             for u in (ann, bob, cat)]
    assert ranks == [3, 1, 1]
    today = (await client.get("/api/daily", headers=ann.auth)).json()
    assert (today["players"], today["winners"], today["playing"]) == (3, 3, 0)
    dan = await signup(client, "Dan")
    assert (await client.get("/api/daily", headers=dan.auth)).json()["my_rank"] is None
    assert_problem(await client.get(f"/api/daily/{day + timedelta(days=1)}/board"), 404,
                   "no_such_day")
    assert_problem(await client.get("/api/daily/2026-02-30/board"), 422)

    # Ann wins the next day too (late, within its window); Bob skips it.
    clock.now = T0 + timedelta(days=1)
    game = (await client.post("/api/daily/start", headers=ann.auth)).json()
    clock.now = T0 + timedelta(days=1, hours=5)  # the next day's last hour: still in time
    await play_daily(app, ann, game["id"], clock)
    clock.now = T0 + timedelta(days=1, hours=7)  # the day after: yesterday's win counts
    today = (await client.get("/api/daily", headers=ann.auth)).json()
    assert today["streak"] == {"current": 2, "best": 2,
                               "last_won": (day + timedelta(days=1)).isoformat()}
    bob_today = (await client.get("/api/daily", headers=bob.auth)).json()
    assert bob_today["streak"]["current"] == 0 and bob_today["streak"]["best"] == 1
    async with session_factory() as session:
        for user in (ann, bob, cat):
            cached = await session.get(DailyStreak, user.id)
            assert cached is not None
            lost = await daily.today_lost(session=session, player_id=user.id,
                                          today=clock.now.date())
            expected = daily_streak(await daily.won_days(session=session, player_id=user.id),
                                    today=clock.now.date(), today_lost=lost)
            assert daily.current_from_cache(cached, today=clock.now.date(),
                                            lost_today=lost) == expected.current
            assert cached.best == expected.best
        assert len(list(await session.scalars(select(DailyStreak)))) == 3


async def test_a_daily_won_the_next_day_counts_for_its_own_day(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    clock = clocked(app)
    ann = await signup(client, "Ann")
    day = T0.date()
    clock.now = T0.replace(hour=23, minute=59)
    game = (await client.post("/api/daily/start", headers=ann.auth)).json()
    await play_daily(app, ann, game["id"], clock, seconds_per_action=60.0)  # hours later
    assert clock.now.date() > day
    won = (await client.get(f"/api/solo/games/{game['id']}")).json()
    assert won["status"] == "won" and won["daily_date"] == day.isoformat()
    board = (await client.get(f"/api/daily/{day}/board")).json()  # yesterday's: public
    assert [e["name"] for e in board["items"]] == [ann.name]
    today = (await client.get("/api/daily", headers=ann.auth)).json()
    assert today["streak"]["current"] == 1 and today["streak"]["last_won"] == day.isoformat()


async def daily_begun(client: httpx.AsyncClient, app: FastAPI, actions: int
                      ) -> tuple[FakeClock, User, dict[str, Any]]:
    """Ann's daily of today, opened, with its first ``actions`` actions played."""
    clock = clocked(app)
    ann = await signup(client, "Ann")
    game = (await client.post("/api/daily/start", headers=ann.auth)).json()
    await play_daily(app, ann, game["id"], clock, stop=actions)
    return clock, ann, game


async def test_a_game_in_progress_counts_in_no_stats_until_over(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    _, ann, game = await daily_begun(client, app, 5)
    solo = (await client.post("/api/solo/games", headers=ann.auth,
                              json={"number": 7, "options": {"suits": 2}})).json()["game"]

    def two_suits(info: dict[str, Any]) -> tuple[int, int, int]:
        entry = next(e for e in info["solo"] if e["suits"] == 2)
        return entry["games"], entry["wins"], info["daily"]["played"]

    info = (await client.get(f"/api/players/{ann.id}")).json()
    assert two_suits(info) == (0, 0, 0)  # neither the daily nor the solo game in progress
    mine = (await client.get("/api/players/me", headers=ann.auth)).json()
    assert two_suits(mine) == (0, 0, 0)  # to its player neither

    def day_counts(today: dict[str, Any]) -> tuple[int, int, int]:
        return today["players"], today["winners"], today["playing"]

    today = (await client.get("/api/daily", headers=ann.auth)).json()
    assert day_counts(today) == (0, 0, 1)  # the day's counts agree: playing, not played
    await client.post(f"/api/solo/games/{game['id']}/abandon", headers=ann.auth)
    info = (await client.get(f"/api/players/{ann.id}")).json()
    assert two_suits(info) == (1, 0, 1)  # over: now an attempt, in both counts
    today = (await client.get("/api/daily", headers=ann.auth)).json()
    assert day_counts(today) == (1, 0, 0)  # given up: played, not won
    assert solo["status"] == "playing"


async def test_a_daily_left_playing_past_its_window_counts_as_over(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    clock, ann, _ = await daily_begun(client, app, 2)
    clock.advance(seconds=2 * 86_400)  # past the end of D + 1: expired, not yet ended
    info = (await client.get(f"/api/players/{ann.id}")).json()
    entry = next(e for e in info["solo"] if e["suits"] == 2)
    assert (entry["games"], info["daily"]["played"]) == (1, 1)
