"""Invitations: direct to a friend or by link; accept, decline, cancel, expiry, ignores."""

from datetime import timedelta

import httpx
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Invite, utcnow
from tests.api.test_tables import create_table
from tests.support.api import User, assert_problem, befriend, signup


async def invite(client: httpx.AsyncClient, user: User, table_id: int,
                 to: str | None = None) -> dict:  # type: ignore[type-arg]
    body = {"to": to} if to else {}
    response = await client.post(f"/api/tables/{table_id}/invites", json=body,
                                 headers=user.auth)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


async def test_direct_invite_to_a_friend_seats_them_on_accept(
    client: httpx.AsyncClient,
) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    table = await create_table(client, ann, public=False, level="expert")
    assert_problem(await client.post(f"/api/tables/{table['id']}/invites", json={"to": "Bob"},
                                     headers=ann.auth), 403, "not_friend")
    await befriend(client, ann, bob)
    sent = await invite(client, ann, table["id"], "Bob")
    assert sent["kind"] == "direct" and sent["status"] == "pending"
    assert len(sent["code"]) >= 22  # ≥ 128 bits in URL-safe base64
    incoming = (await client.get("/api/me/invites", headers=bob.auth)).json()["items"]
    assert [i["code"] for i in incoming] == [sent["code"]]
    assert incoming[0]["game"] == {"preset": table["preset"], "suits": table["suits"],
                                   "time_limit_seconds": table["time_limit_seconds"],
                                   "rated": table["rated"]}  # who invites to what
    # The private table is visible to its invitee, not to others.
    assert (await client.get(f"/api/tables/{table['id']}", headers=bob.auth)).status_code \
        == 200
    assert_problem(await client.get(f"/api/tables/{table['id']}", headers=cid.auth), 404)
    assert_problem(await client.get(f"/api/invites/{sent['code']}", headers=cid.auth), 404)
    assert_problem(await client.post(f"/api/invites/{sent['code']}/accept",
                                     headers=cid.auth), 404)
    # Accepting bypasses privacy and level, and starts the match.
    seated = await client.post(f"/api/invites/{sent['code']}/accept", headers=bob.auth)
    assert seated.status_code == 200
    assert seated.json()["status"] == "full" and seated.json()["match_id"] is not None
    assert_problem(await client.post(f"/api/invites/{sent['code']}/accept",
                                     headers=bob.auth), 409, "invite_closed")
    assert (await client.get("/api/me/invites", headers=bob.auth)).json()["items"] == []


async def test_link_invite_works_for_anyone_once(client: httpx.AsyncClient) -> None:
    ann, bob, cid = [await signup(client, n) for n in ("Ann", "Bob", "Cid")]
    table = await create_table(client, ann, public=False)
    link = await invite(client, ann, table["id"])
    assert link["kind"] == "link" and link["invitee_id"] is None
    seen = (await client.get(f"/api/invites/{link['code']}", headers=cid.auth)).json()
    assert seen["table"]["id"] == table["id"] and seen["inviter_name"] == "Ann"
    assert (await client.post(f"/api/invites/{link['code']}/accept",
                              headers=cid.auth)).status_code == 200
    assert_problem(await client.post(f"/api/invites/{link['code']}/accept",
                                     headers=bob.auth), 409, "invite_closed")
    bare = await client.post(f"/api/tables/{table['id']}/invites", headers=ann.auth)
    assert_problem(bare, 409, "table_full")  # no body is a link invitation, but it's full


async def test_decline_cancel_and_expiry(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    await befriend(client, ann, bob)
    table = await create_table(client, ann)
    first = await invite(client, ann, table["id"], "Bob")
    assert_problem(await client.post(f"/api/invites/{first['code']}/decline",
                                     headers=ann.auth), 403, "not_invitee")
    declined = await client.post(f"/api/invites/{first['code']}/decline", headers=bob.auth)
    assert declined.json()["status"] == "declined"
    second = await invite(client, ann, table["id"], "Bob")
    assert_problem(await client.delete(f"/api/invites/{second['code']}", headers=bob.auth),
                   403, "not_inviter")
    cancelled = await client.delete(f"/api/invites/{second['code']}", headers=ann.auth)
    assert cancelled.json()["status"] == "cancelled"
    third = await invite(client, ann, table["id"], "Bob")
    await session.execute(update(Invite).where(Invite.code == third["code"])
                          .values(expires_at=utcnow() - timedelta(seconds=1)))
    await session.commit()
    assert (await client.get(f"/api/invites/{third['code']}",
                             headers=bob.auth)).json()["status"] == "expired"
    assert (await client.get("/api/me/invites", headers=bob.auth)).json()["items"] == []
    assert_problem(await client.post(f"/api/invites/{third['code']}/accept",
                                     headers=bob.auth), 409, "invite_expired")
    table_now = (await client.get(f"/api/tables/{table['id']}", headers=ann.auth)).json()
    assert [s["name"] for s in table_now["seats"]] == ["Ann"]


async def test_ignored_players_cannot_invite_or_accept(client: httpx.AsyncClient) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    await befriend(client, ann, bob)
    await client.post("/api/me/ignores", json={"name": "Ann"}, headers=bob.auth)
    table = await create_table(client, ann)
    assert_problem(await client.post(f"/api/tables/{table['id']}/invites", json={"to": "Bob"},
                                     headers=ann.auth), 403, "ignored")
    await client.post("/api/me/ignores", json={"name": "Bob"}, headers=ann.auth)
    link = await invite(client, ann, table["id"])
    assert_problem(await client.post(f"/api/invites/{link['code']}/accept",
                                     headers=bob.auth), 403, "ignored")
    assert (await client.get(f"/api/invites/{link['code']}",
                             headers=ann.auth)).json()["status"] == "pending"


async def test_an_ignore_blocks_invitations_both_ways(client: httpx.AsyncClient) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    await befriend(client, ann, bob)
    await client.post("/api/me/ignores", json={"name": "Bob"}, headers=ann.auth)
    table = await create_table(client, ann)
    # I may not invite a player I ignore, even a friend...
    assert_problem(await client.post(f"/api/tables/{table['id']}/invites", json={"to": "Bob"},
                                     headers=ann.auth), 403, "ignoring")
    # ...nor accept the invitation of one.
    bobs = await create_table(client, bob)
    link = await invite(client, bob, bobs["id"])
    assert_problem(await client.post(f"/api/invites/{link['code']}/accept",
                                     headers=ann.auth), 403, "ignoring")
    assert (await client.get(f"/api/invites/{link['code']}",
                             headers=bob.auth)).json()["status"] == "pending"
    # An invitation sent before the ignore: its private table is hidden from Ann now, and
    # accepting it is refused the same way.
    cid = await signup(client, "Cid")
    await befriend(client, cid, ann)
    private = await create_table(client, cid, public=False)
    direct = await invite(client, cid, private["id"], to="Ann")
    assert (await client.get(f"/api/tables/{private['id']}", headers=ann.auth)).status_code \
        == 200
    mine = await client.get("/api/me/invites", headers=ann.auth)
    assert [i["code"] for i in mine.json()["items"]] == [direct["code"]]
    await client.post("/api/me/ignores", json={"name": "Cid"}, headers=ann.auth)
    assert_problem(await client.get(f"/api/tables/{private['id']}", headers=ann.auth), 404,
                   "table_not_found")
    # Nor is it offered any more (it was, with an Accept that could only be refused).
    mine = await client.get("/api/me/invites", headers=ann.auth)
    assert mine.json()["items"] == [] and mine.json()["total"] == 0
    assert_problem(await client.post(f"/api/invites/{direct['code']}/accept",
                                     headers=ann.auth), 403, "ignoring")


async def test_invite_input_errors(client: httpx.AsyncClient) -> None:
    ann, bob = await signup(client, "Ann"), await signup(client, "Bob")
    table = await create_table(client, ann)
    assert_problem(await client.post(f"/api/tables/{table['id']}/invites", json={"to": "Ann"},
                                     headers=ann.auth), 422, "self")
    assert_problem(await client.post(f"/api/tables/{table['id']}/invites", json={},
                                     headers=bob.auth), 403, "not_seated")
    assert_problem(await client.post("/api/tables/999999/invites", json={},
                                     headers=ann.auth), 404)
    assert_problem(await client.get("/api/invites/short", headers=ann.auth), 422)
    assert_problem(await client.get("/api/invites/" + "a" * 43, headers=ann.auth), 404,
                   "invite_not_found")


async def test_a_link_invitation_tells_a_visitor_who_invites_to_what_and_nothing_more(
    client: httpx.AsyncClient,
) -> None:
    ann, bob = [await signup(client, n) for n in ("Ann", "Bob")]
    table = await create_table(client, ann, public=False, suits=2, time_limit_seconds=600)
    link = await invite(client, ann, table["id"])
    landing = await client.get(f"/api/invites/{link['code']}")  # no token: before a name
    assert landing.status_code == 200
    body = landing.json()
    assert body == {
        "inviter_name": "Ann", "status": "pending", "expires_at": body["expires_at"],
        "table": {"preset": "duel", "suits": 2, "time_limit_seconds": 600, "rated": True},
    }  # no code, table id, seats or match: only what the page says
    # A direct invitation stays private to its two players, a bad token is still refused.
    await befriend(client, ann, bob)
    direct = await invite(client, ann, table["id"], "Bob")
    assert_problem(await client.get(f"/api/invites/{direct['code']}"), 404, "invite_not_found")
    assert_problem(await client.get(f"/api/invites/{link['code']}",
                                    headers={"Authorization": "Bearer forged"}), 401)
    assert_problem(await client.get("/api/invites/" + "x" * 30), 404, "invite_not_found")
    # Once used, the landing page can say so.
    await client.post(f"/api/invites/{link['code']}/accept", headers=bob.auth)
    assert (await client.get(f"/api/invites/{link['code']}")).json()["status"] == "accepted"
