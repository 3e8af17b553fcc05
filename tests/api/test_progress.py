"""A player's past over REST: the merged game list, the statistics, and replays of any
finished game with the score after every step — never of a game still in progress."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.engine.record import record_from_json
from app.scoring.replay import replay_record
from app.services import progress, results
from tests.api.test_solo import start, win
from tests.api.test_tables import create_table
from tests.support.api import assert_problem, signup
from tests.support.play import play


async def _duel(client: httpx.AsyncClient, session: AsyncSession, ann: object, bob: object,
                *, settle: bool = True, steps: tuple[int, int] = (6, 2),
                ) -> tuple[int, int, int]:
    table = await create_table(client, ann, suits=2)  # type: ignore[arg-type]
    joined = (await client.post(f"/api/tables/{table['id']}/join",
                                headers=bob.auth)).json()  # type: ignore[attr-defined]
    first, second = await repo.games_of_match(session, match_id=joined["match_id"])
    await play(session, game_id=first.id, steps=steps[0], end="finished", time_used_ms=120_000)
    if settle:
        await play(session, game_id=second.id, steps=steps[1], end="finished",
                   time_used_ms=120_000 if steps[1] >= 20 else 90_000)
        await results.finish_match(session=session, match_id=joined["match_id"])
    return joined["match_id"], first.id, second.id


async def test_every_finished_game_in_one_list_newest_first(
    client: httpx.AsyncClient, app: FastAPI, session: AsyncSession,
) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    match_id, ann_game, _ = await _duel(client, session, ann, bob)
    won = (await start(client, ann, {"number": 8, "options": {"suits": 1}}))["game"]["id"]
    await win(app, ann, won, 8)
    given_up = (await start(client, ann, {"number": 9, "options": {"suits": 2}}))["game"]["id"]
    await client.post(f"/api/solo/games/{given_up}/abandon", headers=ann.auth)
    await start(client, ann, {"number": 10, "options": {"suits": 1}})  # in progress: not past

    listed = (await client.get(f"/api/players/{ann.id}/games")).json()
    assert listed["total"] == 3
    assert [(g["kind"], g["game_id"], g["result"]) for g in listed["items"]] == [
        ("solo", given_up, "abandoned"), ("solo", won, "won"), ("duel", ann_game,
                                                               listed["items"][2]["result"])]
    duel = listed["items"][2]
    assert duel["match_id"] == match_id and duel["opponent_name"] == "Bob"
    assert duel["score"] == (await client.get(f"/api/matches/{match_id}")).json()["games"][0][
        "score"]
    assert duel["play"]["number"] >= 1_000_000 and duel["suits"] == 2
    solo = listed["items"][1]
    assert solo["points"] > 0 and solo["time_ms"] is not None
    assert solo["play"] == {"number": 8, "suits": 1, "solvable_only": True, "relaxed": False}
    second_page = (await client.get(f"/api/players/{ann.id}/games?page=2&page_size=2")).json()
    assert [g["game_id"] for g in second_page["items"]] == [ann_game]
    assert_problem(await client.get("/api/players/12345/games"), 404, "player_not_found")


async def test_statistics_per_mode_and_suit_count_and_the_rating_over_time(
    client: httpx.AsyncClient, app: FastAPI, session: AsyncSession,
) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    for _ in range(2):  # both games long enough to move ratings (docs/ratings.md)
        await _duel(client, session, ann, bob, steps=(20, 20))
    won = (await start(client, ann, {"number": 8, "options": {"suits": 1}}))["game"]["id"]
    await win(app, ann, won, 8)
    stats = (await client.get(f"/api/players/{ann.id}/stats")).json()
    assert stats["player_name"] == "Ann"
    modes = {(m["mode"], m["suits"]): m for m in stats["modes"]}
    assert set(modes) == {("duel", 2), ("solo", 1)}
    solo = modes[("solo", 1)]
    assert (solo["played"], solo["won"], solo["win_rate"], solo["current_streak"]) == (1, 1, 1, 1)
    game = (await client.get(f"/api/solo/games/{won}")).json()
    assert solo["best_points"] == game["points"] and solo["best_time_ms"] == game["elapsed_ms"]
    duel = modes[("duel", 2)]
    history = (await client.get(f"/api/players/{ann.id}/history")).json()["items"]
    wins = sum(h["outcome"] == "won" for h in history)
    assert duel["played"] == 2 and duel["won"] == wins and duel["win_rate"] == wins / 2
    [series] = stats["ratings"]
    assert series["suits"] == 2
    # The start, then the rating after each rated match, oldest first.
    assert [p["rating"] for p in series["points"]] == [1500.0] + [
        h["rating_after"] for h in reversed(history)]


def test_streaks_count_wins_in_a_row() -> None:
    assert progress.streaks([]) == (0, 0)
    assert progress.streaks([True, True, False, True]) == (1, 2)
    assert progress.streaks([False, True, True, True]) == (3, 3)


async def test_a_solo_replay_names_the_player_and_scores_every_step(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    ann = await signup(client, "Ann")
    game_id = (await start(client, ann, {"number": 8, "options": {"suits": 1}}))["game"]["id"]
    # In progress: no replay, for anybody (its layout names every face-down card).
    assert_problem(await client.get(f"/api/replays/solo/{game_id}"), 409, "game_in_progress")
    assert_problem(await client.get(f"/api/replays/solo/{game_id}", headers=ann.auth), 409,
                   "game_in_progress")
    await win(app, ann, game_id, 8)
    replay = (await client.get(f"/api/replays/solo/{game_id}")).json()
    assert (replay["kind"], replay["player_name"], replay["suits"]) == ("solo", "Ann", 1)
    record = record_from_json(replay["record"])
    assert "layout" in replay["record"] and record.deal_number is None
    assert len(replay["steps"]) == len(record.actions) + 1
    report = replay_record(record)
    assert report.all_legal and replay["steps"][-1]["score"] == report.game.points
    game = (await client.get(f"/api/solo/games/{game_id}")).json()
    assert replay["steps"][-1]["score"] == game["score"]
    assert replay["steps"][0] == {"score": 500, "ms": 0, "by": None}  # windows: 500 at start
    assert all(s["ms"] is not None and s["by"] == "player" for s in replay["steps"][1:])
    assert_problem(await client.get("/api/replays/solo/99999"), 404)


async def test_a_duel_replay_waits_for_both_games(
    client: httpx.AsyncClient, session: AsyncSession,
) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    match_id, ann_game, bob_game = await _duel(client, session, ann, bob, settle=False)
    assert_problem(await client.get(f"/api/replays/duel/{ann_game}"), 409, "match_not_over")
    await play(session, game_id=bob_game, steps=2, end="finished", time_used_ms=90_000)
    await results.finish_match(session=session, match_id=match_id)
    replay = (await client.get(f"/api/replays/duel/{ann_game}")).json()
    assert (replay["kind"], replay["player_name"], replay["match_id"]) == ("duel", "Ann", match_id)
    assert len(replay["steps"]) == 7 and replay["steps"][0]["score"] == 0
    shown = (await client.get(f"/api/matches/{match_id}")).json()["games"][0]
    assert replay["steps"][-1]["score"] == shown["score"]
    assert_problem(await client.get("/api/replays/duel/99999"), 404, "game_not_found")
