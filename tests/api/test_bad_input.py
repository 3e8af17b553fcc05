"""Bad input of every kind: a clear 4xx problem answer, and the database is unchanged."""

from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Base
from tests.api.test_tables import create_table
from tests.support.api import assert_problem, befriend, signup


async def snapshot(session: AsyncSession) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a stable order."""
    tables: dict[str, list[tuple[Any, ...]]] = {}
    for table in Base.metadata.sorted_tables:
        rows = await session.execute(select(table).order_by(*table.primary_key.columns))
        tables[table.name] = [tuple(row) for row in rows]
    session.expire_all()
    return tables


async def test_refused_requests_change_nothing(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    await befriend(client, ann, bob)
    await client.post("/api/me/ignores", json={"name": "Cid"}, headers=ann.auth)
    open_table = await create_table(client, ann)
    private = await create_table(client, ann, public=False)
    full = await create_table(client, bob)
    await client.post(f"/api/tables/{full['id']}/join", headers=ann.auth)
    link = (await client.post(f"/api/tables/{open_table['id']}/invites", json={},
                              headers=ann.auth)).json()
    before = await snapshot(session)

    refused: list[tuple[str, str, dict[str, Any], dict[str, str] | None, int]] = [
        ("POST", "/api/players", {"name": "ann"}, None, 409),
        ("POST", "/api/players", {"name": "x"}, None, 422),
        ("POST", "/api/players", {"name": "Dan", "admin": True}, None, 422),
        ("POST", "/api/me/friends", {"name": "Bob"}, ann.auth, 409),
        ("POST", "/api/me/friends", {"name": "Ann"}, ann.auth, 422),
        ("POST", "/api/me/friends", {"name": "Nobody"}, ann.auth, 404),
        ("POST", "/api/me/friends", {"name": "Bob"}, None, 401),
        ("POST", "/api/me/ignores", {"name": "Cid"}, ann.auth, 409),
        ("POST", "/api/tables", {"suits": 3}, ann.auth, 422),
        ("POST", "/api/tables", {"time_limit_seconds": -1}, ann.auth, 422),
        ("POST", "/api/tables", {"level": "any", "rated": "no"}, ann.auth, 422),
        ("POST", "/api/tables", {}, {"Authorization": "Bearer forged"}, 401),
        ("POST", f"/api/tables/{open_table['id']}/join", {}, cid.auth, 403),
        ("POST", f"/api/tables/{open_table['id']}/join", {}, ann.auth, 409),
        ("POST", f"/api/tables/{private['id']}/join", {}, bob.auth, 404),
        ("POST", f"/api/tables/{full['id']}/join", {}, cid.auth, 409),
        ("POST", f"/api/tables/{full['id']}/leave", {}, ann.auth, 409),
        ("POST", f"/api/tables/{open_table['id']}/leave", {}, bob.auth, 403),
        ("POST", f"/api/tables/{full['id']}/new-game", {}, bob.auth, 409),
        ("POST", f"/api/tables/{open_table['id']}/new-game", {}, ann.auth, 409),
        ("POST", f"/api/tables/{open_table['id']}/invites", {"to": "Cid"}, ann.auth, 403),
        ("POST", f"/api/tables/{open_table['id']}/invites", {"to": 7}, ann.auth, 422),
        ("POST", f"/api/tables/{open_table['id']}/invites", {}, bob.auth, 403),
        ("POST", f"/api/tables/{full['id']}/invites", {}, ann.auth, 409),
        ("POST", f"/api/invites/{link['code']}/accept", {}, cid.auth, 403),
        ("POST", f"/api/invites/{link['code']}/accept", {}, ann.auth, 422),
        ("POST", f"/api/invites/{link['code']}/decline", {}, bob.auth, 403),
        ("DELETE", f"/api/invites/{link['code']}", {}, bob.auth, 403),
        ("DELETE", f"/api/me/friends/{cid.id}", {}, ann.auth, 404),
        ("DELETE", "/api/me/ignores/99999", {}, ann.auth, 404),
        ("DELETE", "/api/me/ignores/-1", {}, ann.auth, 422),
        ("GET", "/api/tables?page=0", {}, ann.auth, 422),
        ("GET", "/api/leaderboard?suits=5", {}, None, 422),
    ]
    for method, path, body, headers, status in refused:
        payload = body if method == "POST" else None
        response = await client.request(method, path, json=payload, headers=headers)
        assert_problem(response, status)
    assert await snapshot(session) == before
