"""Tables and the lobby: settings, two seats, level, privacy, ignores, new game."""

import httpx
import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, Rating
from tests.support.api import User, assert_problem, signup


async def create_table(client: httpx.AsyncClient, user: User, **settings: object) -> dict:  # type: ignore[type-arg]
    response = await client.post("/api/tables", json=settings, headers=user.auth)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


async def test_create_table_defaults_and_owner_seated(client: httpx.AsyncClient) -> None:
    ann = await signup(client, "Ann")
    table = await create_table(client, ann)
    assert (table["preset"], table["suits"], table["level"], table["public"], table["rated"]) \
        == ("duel", 1, "any", True, True)
    assert table["status"] == "open" and table["match_id"] is None
    assert [(s["seat"], s["name"]) for s in table["seats"]] == [(0, "Ann")]


@pytest.mark.parametrize("settings", [
    {"preset": "spider"}, {"suits": 3}, {"suits": "2"}, {"time_limit_seconds": 5},
    {"time_limit_seconds": 10**9}, {"level": "godlike"}, {"public": "yes"}, {"extra": 1},
])
async def test_bad_table_settings_are_refused(
    client: httpx.AsyncClient, settings: dict  # type: ignore[type-arg]
) -> None:
    ann = await signup(client, "Ann")
    assert_problem(await client.post("/api/tables", json=settings, headers=ann.auth), 422)
    bob = await signup(client, "Bob")
    lobby = (await client.get("/api/tables", headers=bob.auth)).json()
    assert lobby["total"] == 0


async def test_join_fills_the_table_and_starts_the_first_match(
    client: httpx.AsyncClient,
) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    table = await create_table(client, ann, suits=2, time_limit_seconds=300)
    joined = await client.post(f"/api/tables/{table['id']}/join", headers=bob.auth)
    assert joined.status_code == 200
    body = joined.json()
    assert body["status"] == "full" and body["match_status"] == "playing"
    assert [s["name"] for s in body["seats"]] == ["Ann", "Bob"]
    assert_problem(await client.post(f"/api/tables/{table['id']}/join", headers=cid.auth),
                   409, "table_full")
    assert_problem(await client.post(f"/api/tables/{table['id']}/join", headers=bob.auth),
                   409, "already_seated")
    match = (await client.get(f"/api/matches/{body['match_id']}")).json()
    assert [g["name"] for g in match["games"]] == ["Ann", "Bob"]
    assert match["deal_number"] is None and match["suits"] is None  # hidden while playing


async def test_lobby_lists_only_joinable_tables_with_filters_and_paging(
    client: httpx.AsyncClient,
) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    for suits, limit in ((1, 300), (2, 600), (2, 900), (4, 1200)):
        await create_table(client, ann, suits=suits, time_limit_seconds=limit)
    await create_table(client, ann, public=False)
    await create_table(client, cid, level="expert")
    await create_table(client, bob)  # my own table is not offered to me

    lobby = (await client.get("/api/tables", headers=bob.auth)).json()
    assert lobby["total"] == 4
    assert all(t["public"] and t["owner_name"] == "Ann" for t in lobby["items"])
    two = (await client.get("/api/tables?suits=2", headers=bob.auth)).json()
    assert sorted(t["time_limit_seconds"] for t in two["items"]) == [600, 900]
    long = (await client.get("/api/tables?min_time_limit=800&max_time_limit=1000",
                             headers=bob.auth)).json()
    assert [t["time_limit_seconds"] for t in long["items"]] == [900]
    first = (await client.get("/api/tables?page_size=3", headers=bob.auth)).json()
    second = (await client.get("/api/tables?page_size=3&page=2", headers=bob.auth)).json()
    assert (len(first["items"]), len(second["items"]), first["total"]) == (3, 1, 4)
    assert {t["id"] for t in first["items"]}.isdisjoint(t["id"] for t in second["items"])
    assert_problem(await client.get("/api/tables?suits=3", headers=bob.auth), 422,
                   "validation_error")
    assert_problem(await client.get("/api/tables?page=0", headers=bob.auth), 422)
    assert_problem(await client.get("/api/tables?page_size=1000", headers=bob.auth), 422)
    assert_problem(await client.get("/api/tables"), 401)


async def test_level_restriction(client: httpx.AsyncClient, session: AsyncSession) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    expert = await create_table(client, ann, level="expert")
    middle = await create_table(client, ann, level="intermediate")
    assert_problem(await client.post(f"/api/tables/{expert['id']}/join", headers=bob.auth),
                   403, "level_mismatch")
    session.add(Rating(player_id=bob.id, suits=1, rating=2000, rd=60, volatility=0.06,
                       games=10))
    await session.commit()
    anyone = await create_table(client, ann)  # level "any"
    lobby = (await client.get("/api/tables?level=expert", headers=bob.auth)).json()
    # A table open to any level is open to an expert too (it was filtered out).
    assert [t["id"] for t in lobby["items"]] == [anyone["id"], expert["id"]]
    assert_problem(await client.post(f"/api/tables/{middle['id']}/join", headers=bob.auth),
                   403, "level_mismatch")
    assert (await client.post(f"/api/tables/{expert['id']}/join",
                              headers=bob.auth)).status_code == 200


async def test_private_tables_and_ignores(client: httpx.AsyncClient) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    private = await create_table(client, ann, public=False)
    public = await create_table(client, ann)
    assert_problem(await client.get(f"/api/tables/{private['id']}", headers=bob.auth), 404)
    assert_problem(await client.post(f"/api/tables/{private['id']}/join", headers=bob.auth),
                   404)
    await client.post("/api/me/ignores", json={"name": "Bob"}, headers=ann.auth)
    lobby = (await client.get("/api/tables", headers=bob.auth)).json()
    assert lobby["total"] == 0
    assert_problem(await client.post(f"/api/tables/{public['id']}/join", headers=bob.auth),
                   403, "ignored")
    assert (await client.get("/api/tables", headers=cid.auth)).json()["total"] == 1
    table = (await client.get(f"/api/tables/{public['id']}", headers=ann.auth)).json()
    assert [s["name"] for s in table["seats"]] == ["Ann"]


async def test_an_ignore_hides_only_the_tables_where_the_ignoring_player_sits(
    client: httpx.AsyncClient,
) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    await client.post("/api/me/ignores", json={"name": "Bob"}, headers=ann.auth)
    await create_table(client, ann)
    cids = await create_table(client, cid)
    lobby = (await client.get("/api/tables", headers=bob.auth)).json()
    assert [t["id"] for t in lobby["items"]] == [cids["id"]] and lobby["total"] == 1


async def test_ignoring_blocks_both_ways_in_the_lobby_and_on_joining(
    client: httpx.AsyncClient,
) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    await client.post("/api/me/ignores", json={"name": "Bob"}, headers=ann.auth)
    bobs = await create_table(client, bob)
    cids = await create_table(client, cid)
    # Ann ignores Bob: Bob's table is neither listed for her nor joinable by her.
    lobby = (await client.get("/api/tables", headers=ann.auth)).json()
    assert [t["id"] for t in lobby["items"]] == [cids["id"]]
    assert_problem(await client.post(f"/api/tables/{bobs['id']}/join", headers=ann.auth),
                   403, "ignoring")
    # And the other way round (Bob is ignored by Ann): refused with its own code.
    anns = await create_table(client, ann)
    assert_problem(await client.post(f"/api/tables/{anns['id']}/join", headers=bob.auth),
                   403, "ignored")
    # Nobody else is affected.
    assert (await client.post(f"/api/tables/{bobs['id']}/join",
                              headers=cid.auth)).status_code == 200


async def test_leave_and_new_game_by_agreement(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    table = await create_table(client, ann)
    tid = table["id"]
    full = (await client.post(f"/api/tables/{tid}/join", headers=bob.auth)).json()
    assert_problem(await client.post(f"/api/tables/{tid}/leave", headers=bob.auth),
                   409, "match_in_progress")
    assert_problem(await client.post(f"/api/tables/{tid}/new-game", headers=bob.auth),
                   409, "match_in_progress")
    await session.execute(update(Match).where(Match.id == full["match_id"])
                          .values(status="finished"))
    await session.commit()
    once = (await client.post(f"/api/tables/{tid}/new-game", headers=ann.auth)).json()
    assert once["match_id"] == full["match_id"]
    assert [s["wants_new_game"] for s in once["seats"]] == [True, False]
    both = (await client.post(f"/api/tables/{tid}/new-game", headers=bob.auth)).json()
    assert both["match_id"] != full["match_id"] and both["match_status"] == "playing"
    assert [s["wants_new_game"] for s in both["seats"]] == [False, False]
    first = (await client.get(f"/api/matches/{full['match_id']}")).json()
    second = (await client.get(f"/api/matches/{both['match_id']}")).json()
    assert (first["ordinal"], second["ordinal"]) == (1, 2)
    await session.execute(update(Match).where(Match.id == both["match_id"])
                          .values(status="finished"))
    await session.commit()
    left = (await client.post(f"/api/tables/{tid}/leave", headers=bob.auth)).json()
    assert left["status"] == "open" and [s["name"] for s in left["seats"]] == ["Ann"]
    assert_problem(await client.post(f"/api/tables/{tid}/leave", headers=bob.auth),
                   403, "not_seated")
    closed = (await client.post(f"/api/tables/{tid}/leave", headers=ann.auth)).json()
    assert closed["status"] == "closed"
    assert_problem(await client.post(f"/api/tables/{tid}/join", headers=bob.auth),
                   409, "table_closed")


async def test_my_tables_lead_back_to_my_game(client: httpx.AsyncClient) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    assert (await client.get("/api/tables/mine", headers=ann.auth)).json()["items"] == []
    waiting = await create_table(client, ann, suits=2)
    playing = await create_table(client, bob)
    await client.post(f"/api/tables/{playing['id']}/join", headers=ann.auth)
    left = await create_table(client, ann)
    await client.post(f"/api/tables/{left['id']}/leave", headers=ann.auth)  # closed
    mine = (await client.get("/api/tables/mine", headers=ann.auth)).json()["items"]
    assert [(t["id"], t["match_id"] is not None) for t in mine] == [
        (playing["id"], True), (waiting["id"], False)]
    assert [t["id"] for t in (await client.get("/api/tables/mine",
                                               headers=bob.auth)).json()["items"]] \
        == [playing["id"]]
    assert (await client.get("/api/tables/mine", headers=cid.auth)).json()["items"] == []
    assert_problem(await client.get("/api/tables/mine"), 401)
