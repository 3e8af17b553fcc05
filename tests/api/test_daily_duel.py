"""POST /api/daily/duel: today's daily deal as a duel over REST (the service's rules:
tests/services/test_daily_duel.py)."""

from __future__ import annotations

import httpx

from app.db.models import utcnow
from tests.support.api import assert_problem, signup


async def test_take_wait_meet_and_see_it_in_the_daily(client: httpx.AsyncClient) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    today = utcnow().date().isoformat()
    assert (await client.get("/api/daily", headers=ann.auth)).json()["duel_table_id"] is None

    waiting = await client.post("/api/daily/duel", headers=ann.auth)
    assert waiting.status_code == 201, waiting.text
    table = waiting.json()
    assert (table["daily_date"], table["suits"], table["preset"]) == (today, 2, "classic")
    assert (table["public"], table["rated"], table["match_id"]) == (False, False, None)
    daily = (await client.get("/api/daily", headers=ann.auth)).json()
    assert daily["duel_table_id"] == table["id"]
    assert daily["my_game"] is None and daily["players"] == 0  # not the daily attempt
    lobby = (await client.get("/api/tables", headers=bob.auth)).json()
    assert table["id"] not in [t["id"] for t in lobby["items"]]  # the matcher seats, not the lobby

    met = await client.post("/api/daily/duel", headers=bob.auth)
    assert met.status_code == 200, met.text
    assert met.json()["id"] == table["id"] and met.json()["match_id"] is not None
    seen = (await client.get(f"/api/tables/{table['id']}", headers=ann.auth)).json()
    assert [s["name"] for s in seen["seats"]] == [ann.name, bob.name]
    again = await client.post("/api/daily/duel", headers=ann.auth)
    assert (again.status_code, again.json()["id"]) == (200, table["id"])

    assert_problem(await client.post("/api/daily/duel"), 401)
    new_game = await client.post(f"/api/tables/{table['id']}/new-game", headers=ann.auth)
    assert new_game.status_code == 409  # a match in progress, and never a second one
