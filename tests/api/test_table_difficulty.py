"""Duel tables with a difficulty: stored, shown, filtered, and dealt accordingly."""

from __future__ import annotations

import httpx
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Match
from app.engine.deal import deal
from app.engine.rules import preset
from app.engine.solver import solve
from app.engine.solver.difficulty import difficulty_of
from app.services.deals import DUEL_SOLVE_NODES
from tests.support.api import assert_problem, signup


async def test_a_hard_table_deals_a_hard_deal_and_the_lobby_filters_on_it(
    client: httpx.AsyncClient, session_factory: async_sessionmaker[AsyncSession],
) -> None:
    ann = await signup(client, "Ann")
    bob = await signup(client, "Bob")
    created = await client.post("/api/tables", headers=ann.auth, json={
        "suits": 1, "difficulty": "hard", "rated": False})
    assert created.status_code == 201, created.text
    table = created.json()
    assert table["difficulty"] == "hard"
    hard = (await client.get("/api/tables?difficulty=hard", headers=bob.auth)).json()
    assert [t["id"] for t in hard["items"]] == [table["id"]]
    easy = (await client.get("/api/tables?difficulty=easy", headers=bob.auth)).json()
    assert easy["total"] == 0
    plain = await client.post("/api/tables", headers=bob.auth, json={"suits": 1})
    assert plain.json()["difficulty"] == "any"

    assert_problem(await client.post("/api/tables", headers=ann.auth,
                                      json={"difficulty": "extreme"}), 422, "validation_error")
    assert_problem(await client.get("/api/tables?difficulty=extreme", headers=ann.auth), 422)

    await client.post(f"/api/tables/{plain.json()['id']}/leave", headers=bob.auth)
    joined = await client.post(f"/api/tables/{table['id']}/join", headers=bob.auth)
    assert joined.status_code == 200, joined.text
    async with session_factory() as session:
        match = await session.get(Match, joined.json()["match_id"])
        assert match is not None and match.difficulty == "hard"
        assert match.deal_number is not None and match.layout is None
    found = solve(deal(match.deal_number, preset("classic", 1)), nodes=DUEL_SOLVE_NODES[1])
    assert found.solved and difficulty_of(found.nodes, suits=1) == "hard"
