"""REST for solo games: start, current, read, abandon, record, a player's games."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.db.models import Match
from app.engine.daily import daily_deal_number
from app.engine.record import load_record
from app.engine.solver.solvable import solvable_deal
from app.scoring.replay import replay_record
from app.services import deals
from app.services.deal_pool import DealPool
from app.services.solo_play import SoloPlay
from tests.support.api import User, assert_problem, signup
from tests.support.frames import kind
from tests.support.solo import T0, FakeClock


async def start(client: httpx.AsyncClient, user: User, body: dict) -> dict:  # type: ignore[type-arg]
    response = await client.post("/api/solo/games", json=body, headers=user.auth)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


async def win(app: FastAPI, user: User, game_id: int, number: int) -> None:
    """Play the number's 1-suit solution through the service (as the WebSocket does)."""
    play: SoloPlay = app.state.solo
    await play.open(player_id=user.id, game_id=game_id)
    for seq, action in enumerate(solvable_deal(number, 1).solution, start=1):
        [answer, *_] = await play.act(player_id=user.id, game_id=game_id, seq=seq,
                                      action=action.to_json())
        assert kind(answer) == "solo_ack", answer


async def test_start_read_abandon_and_replace(client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    bob = await signup(client, "Bob")
    none = await client.get("/api/solo/games/current", headers=ann.auth)
    assert (none.status_code, none.json()) == (200, None)  # none is no error
    first = await start(client, ann, {"number": 123456, "options": {"suits": 2}})
    game = first["game"]
    assert first["abandoned_game_id"] is None
    assert (game["number"], game["kind"], game["status"], game["source_deal"]) == (
        123456, "solo", "playing", None)
    assert game["options"] == {"suits": 2, "solvable_only": True, "relaxed": False}
    assert game["rules"] == {"preset": "classic", "suits": 2}
    assert game["difficulty"] in ("easy", "medium", "hard")
    assert (await client.get("/api/solo/games/current", headers=ann.auth)).json()["id"] == \
        game["id"]
    # In progress: its player only.
    assert_problem(await client.get(f"/api/solo/games/{game['id']}"), 404)
    assert_problem(await client.get(f"/api/solo/games/{game['id']}", headers=bob.auth), 404)
    assert (await client.get(f"/api/solo/games/{game['id']}", headers=ann.auth)).status_code \
        == 200
    # Its record: not found either, for anybody else (no hint that it exists)...
    assert_problem(await client.get(f"/api/solo/games/{game['id']}/record"), 404,
                   "no_such_game")
    assert_problem(await client.get(f"/api/solo/games/{game['id']}/record",
                                    headers=bob.auth), 404, "no_such_game")
    # ...and to its player, not yet.
    assert_problem(await client.get(f"/api/solo/games/{game['id']}/record",
                                    headers=ann.auth), 409, "game_in_progress")
    assert_problem(await client.post(f"/api/solo/games/{game['id']}/abandon",
                                     headers=bob.auth), 403, "not_your_game")

    second = await start(client, ann, {"options": {"suits": 4, "solvable_only": False,
                                                   "relaxed": True}})
    assert second["abandoned_game_id"] == game["id"]
    assert 1 <= second["game"]["number"] <= 999_999
    old = (await client.get(f"/api/solo/games/{game['id']}")).json()
    assert old["status"] == "abandoned" and old["source_deal"] is not None
    assert old["elapsed_ms"] is None and old["points"] is None

    gave_up = await client.post(f"/api/solo/games/{second['game']['id']}/abandon",
                                headers=ann.auth)
    assert gave_up.status_code == 200 and gave_up.json()["status"] == "abandoned"
    assert_problem(await client.post(f"/api/solo/games/{second['game']['id']}/abandon",
                                     headers=ann.auth), 409, "game_over")
    assert_problem(await client.post("/api/solo/games/999999/abandon", headers=ann.auth), 404)


async def test_bad_bodies_are_refused(client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    for body in ({"number": 0, "options": {"suits": 1}},
                 {"number": 2**48, "options": {"suits": 1}},
                 {"number": 5, "options": {"suits": 3}},
                 {"number": 5, "options": {"suits": 1, "undo": True}},
                 {"number": "5", "options": {"suits": 1}},
                 {"options": {"suits": 1}, "extra": 1},
                 {"number": 5}):
        assert_problem(await client.post("/api/solo/games", json=body, headers=ann.auth), 422,
                       "validation_error")
    assert_problem(await client.post("/api/solo/games", json={"options": {"suits": 1}}), 401)
    assert (await client.get("/api/solo/games/current", headers=ann.auth)).json() is None


async def test_a_won_game_shows_its_points_and_its_record_replays(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    ann = await signup(client, "Ann")
    game_id = (await start(client, ann, {"number": 8, "options": {"suits": 1}}))["game"]["id"]
    await win(app, ann, game_id, 8)
    game = (await client.get(f"/api/solo/games/{game_id}")).json()
    assert game["status"] == "won" and game["points"] == game["points_breakdown"]["total"]
    assert game["points_breakdown"]["multiplier"] == "1"
    record = await client.get(f"/api/solo/games/{game_id}/record")
    assert record.status_code == 200
    report = replay_record(load_record(record.text))
    assert report.all_legal and report.game.state.won
    assert report.game.points == game["score"]


async def test_a_players_games_are_paged_and_private_while_in_progress(
    client: httpx.AsyncClient,
) -> None:
    ann = await signup(client, "Ann")
    bob = await signup(client, "Bob")
    for number in (1, 2, 3):  # each abandons the one before
        await start(client, ann, {"number": number, "options": {"suits": 1,
                                                                "solvable_only": False}})
    mine = (await client.get(f"/api/players/{ann.id}/solo/games?page_size=2",
                             headers=ann.auth)).json()
    assert mine["total"] == 3 and [g["number"] for g in mine["items"]] == [3, 2]
    theirs = (await client.get(f"/api/players/{ann.id}/solo/games", headers=bob.auth)).json()
    assert theirs["total"] == 2 and {g["status"] for g in theirs["items"]} == {"abandoned"}
    over = (await client.get(f"/api/players/{ann.id}/solo/games?status=playing")).json()
    assert over["total"] == 0
    assert_problem(await client.get("/api/players/999999/solo/games"), 404)
    assert_problem(await client.get(f"/api/players/{ann.id}/solo/games?suits=3"), 422)
    ones = (await client.get(f"/api/players/{ann.id}/solo/games?suits=1&kind=solo")).json()
    assert ones["total"] == 2


async def test_a_number_past_the_duel_range_is_refused_with_its_limit(
    client: httpx.AsyncClient,
) -> None:
    ann = await signup(client, "Ann")
    refused = assert_problem(await client.post(
        "/api/solo/games", json={"number": 2**48, "options": {"suits": 1}}, headers=ann.auth),
        422, "validation_error")
    assert "281474976710655" in str(refused), refused
    assert (await client.get("/api/solo/games/current", headers=ann.auth)).json() is None


async def test_a_solo_game_starts_on_1_and_on_a_13_digit_link_number(
    client: httpx.AsyncClient,
) -> None:
    ann = await signup(client, "Ann")
    for number in (1, 1_234_567_890_123, 2**48 - 1):
        game = (await start(client, ann, {"number": number, "options": {
            "suits": 4, "solvable_only": False}}))["game"]
        assert game["number"] == number
        assert (await client.get("/api/solo/games/current", headers=ann.auth)).json()[
            "number"] == number  # stored as is (BIGINT), read back as is


async def test_a_solo_game_on_a_duels_play_number_deals_the_duels_cards(
    client: httpx.AsyncClient,
) -> None:
    """The share text's "play this deal": the very cards of the duel, from a duel number."""
    ann = await signup(client, "Ann")
    for suits, solvable_only in ((1, None), (2, False)):
        choice = await deals.choose_deal(suits=suits, solvable_only=solvable_only,
                                         pool=DealPool(sizes={}, make=lambda bin_: None))
        match = Match(suits=suits, preset="duel", deal_number=choice.deal_number,
                      generator_version=choice.generator_version,
                      play_number=choice.play_number,
                      play_solvable_only=choice.play_solvable_only)
        play = deals.play_this_deal(match)
        assert play is not None and play["number"] > 999_999
        game = (await start(client, ann, {"number": play["number"], "options": {
            "suits": suits, "solvable_only": play["solvable_only"]}}))["game"]
        await client.post(f"/api/solo/games/{game['id']}/abandon", headers=ann.auth)
        record = load_record((await client.get(f"/api/solo/games/{game['id']}/record")).text)
        duel = deals.start_state(match)
        assert (record.start.columns, record.start.stock) == (duel.columns, duel.stock)


async def test_todays_daily_deal_cannot_be_practised_as_a_solo_game_until_tomorrow(
    client: httpx.AsyncClient, app: FastAPI,
) -> None:
    """Its cards are the day's one counted attempt: a solo game on them (a shared link of
    the daily's result, the number typed in) would be a rehearsal of it."""
    clock = FakeClock()
    app.state.solo.clock = clock
    ann = await signup(client, "Ann")
    today = daily_deal_number(T0.date())
    for options in ({"suits": 2}, {"suits": 2, "relaxed": True}):
        assert_problem(await client.post("/api/solo/games", headers=ann.auth, json={
            "number": today, "options": options}), 409, "daily_deal_today")
    assert (await client.get("/api/solo/games/current", headers=ann.auth)).json() is None
    # Other cards on that number: 1 suit, or the generator deal (not the solvable one).
    await start(client, ann, {"number": today, "options": {"suits": 1}})
    await start(client, ann, {"number": today, "options": {"suits": 2, "solvable_only": False}})
    clock.advance(days=1)  # tomorrow it is a deal like any other
    game = (await start(client, ann, {"number": today, "options": {"suits": 2}}))["game"]
    assert game["number"] == today
