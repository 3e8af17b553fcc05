"""Results over REST: match result, record download, history, leaderboard, bands."""

import itertools
from datetime import datetime, timedelta

import httpx
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.db.models import Match
from app.engine.record import record_from_json
from app.rewards.solo import SoloOptions, solo_start
from app.rooms.store import Totals
from app.services import results
from app.settings import Settings
from tests.api.test_tables import create_table
from tests.support.api import assert_problem, signup
from tests.support.play import play


async def test_a_finished_duel_over_rest(client: httpx.AsyncClient,
                                         session: AsyncSession) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    table = await create_table(client, ann, suits=2)
    joined = (await client.post(f"/api/tables/{table['id']}/join", headers=bob.auth)).json()
    match_id = joined["match_id"]
    first, second = await repo.games_of_match(session, match_id=match_id)
    await play(session, game_id=first.id, steps=20, end="finished", time_used_ms=120_000)
    assert_problem(await client.get(f"/api/games/{first.id}/record"), 409, "match_not_over")
    hidden = (await client.get(f"/api/matches/{match_id}")).json()
    assert hidden["deal_number"] is None and hidden["games"][0]["status"] == "finished"
    assert hidden["play"] is None  # a seed: not while Bob still plays
    await play(session, game_id=second.id, steps=0, end="timed_out", time_used_ms=900_000)
    await results.finish_match(session=session, match_id=match_id)

    shown = (await client.get(f"/api/matches/{match_id}")).json()
    assert shown["status"] == "finished" and shown["suits"] == 2
    assert shown["deal_number"] is not None and shown["generator_version"] == 1
    play_again = shown["play"]
    assert play_again["suits"] == 2 and 1_000_000 <= play_again["number"] <= 2**48 - 1
    solo = solo_start(play_again["number"], SoloOptions(
        suits=2, solvable_only=play_again["solvable_only"]))
    assert solo.source == shown["deal_number"]  # the very cards of the duel
    assert [g["status"] for g in shown["games"]] == ["finished", "timed_out"]
    assert [g["time_used_ms"] for g in shown["games"]] == [120_000, 900_000]
    winner = shown["winner_id"]
    by_id = {g["player_id"]: g for g in shown["games"]}
    loser = next(pid for pid in by_id if pid != winner)
    assert by_id[winner]["rating_change"] > 0 > by_id[loser]["rating_change"]

    download = await client.get(f"/api/games/{first.id}/record")
    assert download.status_code == 200
    record = record_from_json(download.json())
    assert record.deal_number == shown["deal_number"] and len(record.actions) == 20

    history = (await client.get(f"/api/players/{ann.id}/history")).json()
    assert history["total"] == 1 and history["items"][0]["opponent_name"] == "Bob"
    assert history["items"][0]["outcome"] == ("won" if winner == ann.id else "lost")
    assert (await client.get(f"/api/players/{ann.id}/history?since=2999-01-01T00:00:00Z")
            ).json()["total"] == 0
    assert_problem(await client.get(f"/api/players/{ann.id}/history?since=yesterday"), 422)
    edges = "since=0001-01-01T00:00:00%2B05:00&until=9999-12-31T23:59:59-05:00"
    assert (await client.get(f"/api/players/{ann.id}/history?{edges}")).json()["total"] == 1

    board = (await client.get("/api/leaderboard?suits=2")).json()
    assert next(e["player_id"] for e in board["items"]) == winner
    assert [e["rank"] for e in board["items"]] == [1, 2]
    assert (await client.get("/api/leaderboard?suits=1")).json()["total"] == 0
    assert_problem(await client.get("/api/leaderboard?suits=3"), 422, "validation_error")

    me = (await client.get("/api/players/me", headers=ann.auth)).json()
    assert me["games_played"] == 1 and abs(me["streak"]) == 1


async def test_unknown_results_are_404(client: httpx.AsyncClient) -> None:
    assert_problem(await client.get("/api/matches/12345"), 404, "match_not_found")
    assert_problem(await client.get("/api/games/12345/record"), 404, "game_not_found")
    assert_problem(await client.get("/api/players/12345/history"), 404, "player_not_found")


async def test_bands_are_published(client: httpx.AsyncClient) -> None:
    bands = (await client.get("/api/bands")).json()
    assert [b["name"] for b in bands] == ["beginner", "intermediate", "advanced", "expert"]
    assert bands[0]["min_rating"] is None and bands[-1]["max_rating"] is None
    assert all(a["max_rating"] == b["min_rating"] for a, b in itertools.pairwise(bands))


async def test_game_statuses_use_the_websocket_words(client: httpx.AsyncClient,
                                                     session: AsyncSession) -> None:
    """Not opened yet: ``not_started``; never opened in time: ``did_not_start`` — in the
    match result and in the history alike (the words of docs/protocol.md)."""
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    table = await create_table(client, ann)
    match_id = (await client.post(f"/api/tables/{table['id']}/join",
                                  headers=bob.auth)).json()["match_id"]
    fresh = (await client.get(f"/api/matches/{match_id}")).json()
    assert [g["status"] for g in fresh["games"]] == ["not_started", "not_started"]
    first, second = await repo.games_of_match(session, match_id=match_id)
    await play(session, game_id=first.id, steps=2, end=None)  # moves stored, never opened
    assert [g["status"] for g in (await client.get(f"/api/matches/{match_id}")).json()[
        "games"]] == ["not_started", "not_started"]
    await play(session, game_id=first.id, steps=1, end="finished")  # opened, then ended
    await repo.finish_game(session, game=second, status="timed_out",
                           progress=Totals(0, 0, 900_000))  # the no-show
    await session.commit()
    await results.finish_match(session=session, match_id=match_id)
    shown = (await client.get(f"/api/matches/{match_id}")).json()
    assert [g["status"] for g in shown["games"]] == ["finished", "did_not_start"]
    history = (await client.get(f"/api/players/{bob.id}/history")).json()
    assert [(h["status"], h["outcome"]) for h in history["items"]] == [("did_not_start", "lost")]


async def test_a_game_not_opened_yet_says_until_when_it_may_be(
        client: httpx.AsyncClient, session: AsyncSession) -> None:
    """The ready screen's deadline: the start window's end (15 min by default) after the
    match was made, sooner than the table's expiry; gone once every game is opened."""
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    table = await create_table(client, ann)
    match_id = (await client.post(f"/api/tables/{table['id']}/join",
                                  headers=bob.auth)).json()["match_id"]
    waiting = (await client.get(f"/api/matches/{match_id}")).json()
    deadline = datetime.fromisoformat(waiting["start_deadline"])
    made = await session.get(Match, match_id)
    assert made is not None
    assert deadline - made.created_at == timedelta(seconds=Settings().start_window_seconds)
    first, second = await repo.games_of_match(session, match_id=match_id)
    await repo.start_game(session, game=first)
    await session.commit()
    assert (await client.get(f"/api/matches/{match_id}")).json()["start_deadline"] is not None
    await repo.start_game(session, game=second)
    await session.commit()
    assert (await client.get(f"/api/matches/{match_id}")).json()["start_deadline"] is None
