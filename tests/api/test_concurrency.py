"""Races: two players take the last seat at once (one sits, the other gets 409); both
agree to a new game at once (exactly one new match)."""

import asyncio

import httpx
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match
from tests.api.test_tables import create_table
from tests.support.api import signup


async def test_two_players_race_for_the_last_seat(client: httpx.AsyncClient) -> None:
    for round_number in range(3):
        host = await signup(client, f"Host{round_number}")
        racers = [await signup(client, f"Racer{round_number}x{i}") for i in range(2)]
        table = await create_table(client, host)
        answers = await asyncio.gather(*(
            client.post(f"/api/tables/{table['id']}/join", headers=racer.auth)
            for racer in racers
        ))
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [200, 409], [a.text for a in answers]
        final = (await client.get(f"/api/tables/{table['id']}", headers=host.auth)).json()
        assert len(final["seats"]) == 2 and final["match_id"] is not None


async def test_both_agree_to_a_new_game_at_once(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    for round_number in range(3):
        ann = await signup(client, f"Ann{round_number}")
        bob = await signup(client, f"Bob{round_number}")
        table = await create_table(client, ann)
        full = (await client.post(f"/api/tables/{table['id']}/join", headers=bob.auth)).json()
        await session.execute(update(Match).where(Match.id == full["match_id"])
                              .values(status="finished"))
        await session.commit()
        answers = await asyncio.gather(*(
            client.post(f"/api/tables/{table['id']}/new-game", headers=user.auth)
            for user in (ann, bob)
        ))
        assert [a.status_code for a in answers] == [200, 200]
        matches = (await session.scalars(select(Match.id).where(
            Match.table_id == table["id"]))).all()
        assert len(matches) == 2  # exactly one new match, never none, never two
