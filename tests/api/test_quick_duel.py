"""POST/GET/DELETE /api/quick-duel: a duel at once — seated into the match of a waiting
player of my band and suit count, or my own match, started now and paired later with the
next player who asks (app/services/quick_duel.py; the pairing rule in docs/api.md,
"Quick duel")."""

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
    assert (table["public"], table["rated"]) == (False, True)
    match_id = table["match_id"]  # my match is made at once: I play now
    assert match_id is not None and table["match_status"] == "playing"
    alone = (await client.get(f"/api/matches/{match_id}", headers=ann.auth)).json()
    assert [g["player_id"] for g in alone["games"]] == [ann.id]
    assert alone["deal_number"] is None and alone["play"] is None  # nothing leaks
    assert await looking(client, bob.auth) == 1
    again = await client.post("/api/quick-duel", json={"suits": 2}, headers=ann.auth)
    assert (again.status_code, again.json()["table"]["id"]) == (200, table["id"])
    lobby = (await client.get("/api/tables", headers=bob.auth)).json()
    assert table["id"] not in [t["id"] for t in lobby["items"]]  # the matcher seats

    met = await client.post("/api/quick-duel", json={"suits": 2}, headers=bob.auth)
    assert met.status_code == 200, met.text
    assert met.json()["paired"] and met.json()["looking"] == 0
    assert met.json()["table"]["id"] == table["id"]
    assert met.json()["table"]["match_id"] == match_id  # paired into Ann's match
    both = (await client.get(f"/api/matches/{match_id}", headers=bob.auth)).json()
    assert [g["player_id"] for g in both["games"]] == [ann.id, bob.id]
    assert both["deal_number"] is None and both["play"] is None
    seen = (await client.get(f"/api/tables/{table['id']}", headers=ann.auth)).json()
    assert [s["name"] for s in seen["seats"]] == [ann.name, bob.name]
    # Asking again during the duel gives that duel back, not a second one.
    mine = await client.post("/api/quick-duel", json={"suits": 2}, headers=ann.auth)
    assert (mine.json()["paired"], mine.json()["table"]["id"]) == (True, table["id"])
    assert await looking(client, ann.auth) == 0


async def test_paired_later_the_first_player_has_the_deadline(client: httpx.AsyncClient) -> None:
    """Ann asks and goes away; Bob asks for another suit count: his own match; Cara, later,
    is paired into Ann's match, and Ann, who is not there, has the quick-duel deadline (not
    the 15 minutes of an ordinary match) to open her game."""
    ann, bob, cara = (await signup(client, "Ann"), await signup(client, "Bob"),
                      await signup(client, "Cara"))
    first = (await client.post("/api/quick-duel", json={"suits": 1}, headers=ann.auth)).json()
    # Another suit count: 2, not 4, whose deal is searched when the new app's pool is
    # not filled yet (5 s alone, 94 s once in CI on a loaded machine).
    other = await client.post("/api/quick-duel", json={"suits": 2}, headers=bob.auth)
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

    # Bob stops looking: nobody is looking any more; his game stays his to play (its
    # match ends without an opponent once it is over: tests/rooms/test_quick_duel_live.py).
    assert (await client.delete("/api/quick-duel", headers=bob.auth)).status_code == 204
    assert await looking(client, ann.auth) == 0
    his = (await client.get(f"/api/tables/{other.json()['table']['id']}",
                            headers=bob.auth)).json()
    assert (his["match_id"], his["match_status"]) == (other.json()["table"]["match_id"],
                                                      "playing")


async def test_one_quick_duel_at_a_time(client: httpx.AsyncClient) -> None:
    """While my game of a quick duel is still to be played, asking again (whatever the suit
    count) gives it back; stopping looking lapses the wait, and nobody is paired into it."""
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    one = (await client.post("/api/quick-duel", json={"suits": 1}, headers=ann.auth)).json()
    two = await client.post("/api/quick-duel", json={"suits": 2}, headers=ann.auth)
    assert two.status_code == 200 and two.json()["table"]["id"] == one["table"]["id"]
    assert two.json()["looking"] == 1
    assert (await client.delete("/api/quick-duel", headers=ann.auth)).status_code == 204
    assert await looking(client, bob.auth) == 0
    theirs = await client.post("/api/quick-duel", json={"suits": 1}, headers=bob.auth)
    assert theirs.status_code == 201 and not theirs.json()["paired"]
    assert theirs.json()["table"]["match_id"] != one["table"]["match_id"]
    assert_problem(await client.post("/api/quick-duel", json={"suits": 3}, headers=ann.auth),
                   422)
    assert_problem(await client.post("/api/quick-duel"), 401)
    assert_problem(await client.get("/api/quick-duel"), 401)
    assert_problem(await client.delete("/api/quick-duel"), 401)
