"""POST/GET/DELETE /api/quick-duel: a duel at once against a waiting player of my band and
suit count, or my table waiting for the next one (app/services/quick_duel.py; the pairing
rule in docs/api.md, "Quick duel")."""

from __future__ import annotations

from datetime import datetime, timedelta

import httpx

from app.db.models import utcnow
from tests.support.api import assert_problem, signup


async def looking(client: httpx.AsyncClient, auth: dict[str, str]) -> int:
    answer = await client.get("/api/quick-duel", headers=auth)
    assert answer.status_code == 200, answer.text
    return int(answer.json()["looking"])


async def test_paired_live_with_the_player_who_waits(client: httpx.AsyncClient) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    assert await looking(client, bob.auth) == 0

    waiting = await client.post("/api/quick-duel", json={"suits": 2}, headers=ann.auth)
    assert waiting.status_code == 201, waiting.text
    body = waiting.json()
    table = body["table"]
    assert (body["paired"], body["looking"]) == (False, 1)
    assert (table["quick"], table["suits"], table["preset"], table["level"]) == (
        True, 2, "duel", "intermediate")  # a newcomer's band
    assert (table["public"], table["rated"], table["match_id"]) == (False, True, None)
    assert await looking(client, bob.auth) == 1
    again = await client.post("/api/quick-duel", json={"suits": 2}, headers=ann.auth)
    assert (again.status_code, again.json()["table"]["id"]) == (200, table["id"])
    lobby = (await client.get("/api/tables", headers=bob.auth)).json()
    assert table["id"] not in [t["id"] for t in lobby["items"]]  # the matcher seats

    met = await client.post("/api/quick-duel", json={"suits": 2}, headers=bob.auth)
    assert met.status_code == 200, met.text
    assert met.json()["paired"] and met.json()["looking"] == 0
    assert met.json()["table"]["id"] == table["id"]
    match_id = met.json()["table"]["match_id"]
    assert match_id is not None
    seen = (await client.get(f"/api/tables/{table['id']}", headers=ann.auth)).json()
    assert [s["name"] for s in seen["seats"]] == [ann.name, bob.name]
    # Asking again during the duel gives that duel back, not a second one.
    mine = await client.post("/api/quick-duel", json={"suits": 2}, headers=ann.auth)
    assert (mine.json()["paired"], mine.json()["table"]["id"]) == (True, table["id"])
    assert await looking(client, ann.auth) == 0


async def test_paired_later_the_first_player_has_the_deadline(client: httpx.AsyncClient) -> None:
    """Ann asks and goes away; Bob asks for another suit count and waits at his own table;
    Cara, later, is paired with Ann: the match starts, and Ann, who is not there, has the
    quick-duel deadline (not the 15 minutes of an ordinary match) to open her game."""
    ann, bob, cara = (await signup(client, "Ann"), await signup(client, "Bob"),
                      await signup(client, "Cara"))
    first = (await client.post("/api/quick-duel", json={"suits": 1}, headers=ann.auth)).json()
    other = await client.post("/api/quick-duel", json={"suits": 4}, headers=bob.auth)
    assert other.status_code == 201 and not other.json()["paired"]
    assert other.json()["table"]["id"] != first["table"]["id"]
    assert other.json()["looking"] == 2

    later = await client.post("/api/quick-duel", json={"suits": 1}, headers=cara.auth)
    assert later.status_code == 200 and later.json()["paired"]
    table = later.json()["table"]
    assert table["id"] == first["table"]["id"] and later.json()["looking"] == 1
    expires = datetime.fromisoformat(table["expires_at"])
    assert expires - utcnow() > timedelta(minutes=59)  # the setting's 3,600 s, from now

    result = (await client.get(f"/api/matches/{table['match_id']}", headers=ann.auth)).json()
    assert {g["status"] for g in result["games"]} == {"not_started"}
    assert datetime.fromisoformat(result["start_deadline"]) == expires

    # Bob gives up: his table closes and nobody is looking any more.
    assert (await client.delete("/api/quick-duel", headers=bob.auth)).status_code == 204
    assert await looking(client, ann.auth) == 0
    # Private, and he no longer sits there: not even his to see.
    assert_problem(await client.get(f"/api/tables/{other.json()['table']['id']}",
                                    headers=bob.auth), 404)


async def test_asking_for_another_suit_count_gives_up_the_first(
        client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    one = (await client.post("/api/quick-duel", json={"suits": 1}, headers=ann.auth)).json()
    two = (await client.post("/api/quick-duel", json={"suits": 2}, headers=ann.auth)).json()
    assert two["table"]["id"] != one["table"]["id"] and two["looking"] == 1
    assert_problem(await client.post("/api/quick-duel", json={"suits": 3}, headers=ann.auth),
                   422)
    assert_problem(await client.post("/api/quick-duel"), 401)
    assert_problem(await client.get("/api/quick-duel"), 401)
