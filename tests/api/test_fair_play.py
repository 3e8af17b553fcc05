"""Fair play (docs/points.md): a bot that wins by following hints and the auto-complete
tops no board and earns no skill badge; its assists are logged and shown (issue 24)."""

from __future__ import annotations

from datetime import date
from typing import Any

import httpx
from fastapi import FastAPI

from app.engine.daily import daily_deal
from app.engine.solver.solvable import solvable_deal
from app.rewards.fair_play import SKILL_BADGES
from app.services.solo_play import SoloPlay
from tests.support.api import User, signup
from tests.support.frames import as_json, kind
from tests.support.solo import FakeClock

BOT_DEAL = 3
"""A 1-suit deal that following the hints wins (93 hints, then the auto-complete)."""
ANN_DEAL = 7
"""A 1-suit deal whose winning line the auto-complete check solves in ~0.04 s (after each
action with the stock empty and every card face up the server asks the solver whether to
offer it): along deal 1's line that took ~20 s of the test."""


async def start(client: httpx.AsyncClient, user: User, number: int) -> int:
    response = await client.post("/api/solo/games", headers=user.auth,
                                 json={"number": number, "options": {"suits": 1}})
    assert response.status_code == 201, response.text
    return int(response.json()["game"]["id"])


async def hint_bot(play: SoloPlay, clock: FakeClock, user: User, game_id: int
                   ) -> tuple[int, list[dict[str, Any]]]:
    """Play only what the hints say, as fast as a script, and take the auto-complete when
    offered; the hints asked and the frames of the end."""
    [snapshot] = [as_json(f) for f in await play.open(player_id=user.id, game_id=game_id)]
    seq, offered = snapshot["seq"] + 1, snapshot["auto_complete"]
    for hints in range(400):
        clock.advance(seconds=0.1)
        if offered:
            frames = [as_json(f) for f in
                      await play.auto_complete(player_id=user.id, game_id=game_id, seq=seq)]
            assert frames[0]["type"] == "solo_assist" and frames[0]["status"] == "won", frames
            return hints, frames
        hint = as_json(await play.hint(player_id=user.id, game_id=game_id))
        assert hint["action"] is not None, hint
        [ack, *end] = [as_json(f) for f in await play.act(
            player_id=user.id, game_id=game_id, seq=seq, action=hint["action"])]
        assert kind(ack) == "solo_ack", ack
        if ack["status"] == "won":
            return hints + 1, [ack, *end]
        seq, offered = seq + 1, ack["auto_complete"]
    raise AssertionError("the hint bot did not win")


async def by_hand(play: SoloPlay, clock: FakeClock, user: User, game_id: int,
                  line: Any, seconds: float) -> None:
    """A player's own win: the verified line at ``seconds`` per action, no assist."""
    await play.open(player_id=user.id, game_id=game_id)
    for seq, action in enumerate(line, start=1):
        clock.advance(seconds=seconds)
        [ack, *_] = await play.act(player_id=user.id, game_id=game_id, seq=seq,
                                   action=action.to_json())
        assert kind(ack) == "solo_ack", ack


async def badge_codes(client: httpx.AsyncClient, user: User) -> set[str]:
    response = await client.get(f"/api/players/{user.id}/badges")
    assert response.status_code == 200, response.text
    return {badge["code"] for badge in response.json()}


async def test_a_hint_bot_tops_no_solo_board_and_earns_no_skill_badge(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    clock = FakeClock()
    play: SoloPlay = app.state.solo
    play.clock = clock
    ann = await signup(client, "Ann")
    bot = await signup(client, "Bot")
    # Ann wins deal 7 on her own, slowly (2 s an action): fewer points than the bot's.
    ann_game = await start(client, ann, ANN_DEAL)
    await by_hand(play, clock, ann, ann_game, solvable_deal(ANN_DEAL, 1).solution, seconds=2.0)
    bot_game = await start(client, bot, BOT_DEAL)
    hints, end = await hint_bot(play, clock, bot, bot_game)
    assert hints >= 90

    over = next(frame for frame in end if frame["type"] == "solo_over")
    assert over["assisted"] is True
    assert over["assists"] == {"hints": hints, "rescues": 0, "undo_to_winnable": 0,
                               "auto_complete": 1}
    view = (await client.get(f"/api/solo/games/{bot_game}")).json()
    assert view["status"] == "won" and view["assisted"] is True
    log = view["assist_log"]
    assert [entry["kind"] for entry in log] == ["hint"] * hints + ["auto_complete"]
    assert [entry["seq"] for entry in log[:3]] == [0, 1, 2]  # asked before each action
    assert log[-1]["actions"] > 0
    mine = (await client.get(f"/api/solo/games/{ann_game}")).json()
    assert mine["assisted"] is False and mine["assist_log"] == []
    # The bot's points are its own (more than Ann's) but count on no board.
    assert view["points"] > mine["points"]
    for period in ("all", "week"):
        board = (await client.get(f"/api/leaderboards/solo?suits=1&period={period}")).json()
        assert [(e["name"], e["rank"]) for e in board["items"]] == [("Ann", 1)]
    # Quick (under 5 min) and lean (≤ 150 actions) — but assisted: no skill badge.
    assert view["elapsed_ms"] < 300_000 and view["actions"] <= 150
    assert await badge_codes(client, bot) == {"first_win"}
    assert SKILL_BADGES & await badge_codes(client, ann)


async def test_a_daily_won_with_hints_is_listed_marked_without_a_rank_and_no_streak(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    clock = FakeClock()
    play: SoloPlay = app.state.solo
    play.clock = clock
    ann = await signup(client, "Ann")
    bot = await signup(client, "Bot")
    games = {}
    for user in (ann, bot):
        response = await client.post("/api/daily/start", headers=user.auth)
        assert response.status_code == 201, response.text
        games[user.name] = response.json()
    line = daily_deal(date.fromisoformat(games["Ann"]["daily_date"])).solution
    await by_hand(play, clock, ann, games["Ann"]["id"], line, seconds=3.0)
    # The bot asks a hint before every action (2 suits: it plays the verified line, the
    # hints only make it assisted), ten times as fast as Ann.
    game_id = games["Bot"]["id"]
    await play.open(player_id=bot.id, game_id=game_id)
    for seq, action in enumerate(line, start=1):
        clock.advance(seconds=0.3)
        await play.hint(player_id=bot.id, game_id=game_id)
        [ack, *_] = await play.act(player_id=bot.id, game_id=game_id, seq=seq,
                                   action=action.to_json())
        assert kind(ack) == "solo_ack", ack
    day = games["Ann"]["daily_date"]
    board = (await client.get(f"/api/daily/{day}/board", headers=bot.auth)).json()
    rows = [(e["name"], e["rank"], e["assisted"]) for e in board["items"]]
    assert rows == [("Ann", 1, False), ("Bot", None, True)]
    assert board["items"][1]["elapsed_ms"] < board["items"][0]["elapsed_ms"]
    bot_daily = (await client.get("/api/daily", headers=bot.auth)).json()
    assert bot_daily["my_rank"] is None
    assert bot_daily["streak"]["current"] == 0  # a bridged day alone is no streak
    streaks = (await client.get("/api/leaderboards/daily-streaks")).json()
    assert [e["name"] for e in streaks["items"]] == ["Ann"]
    assert not SKILL_BADGES & await badge_codes(client, bot)
