"""Races: two players take the last seat at once; exactly one sits, the other gets 409."""

import asyncio

import httpx

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
