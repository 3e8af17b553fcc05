"""Canned messages at a duel table (``say`` → ``said``, issue 25): to the players of the
match only, never to a spectator, never across an ignore, and rate-limited per player."""

import pytest

from app.settings import Settings
from tests.support.live import Client, LiveServer, make_duel, signup


async def no_said(client: Client) -> None:
    """Nothing said reaches this client (what was sent has had the time to arrive)."""
    with pytest.raises(TimeoutError):
        await client.until("said", timeout=1.0)


def say(match_id: int, code: str = "good_luck") -> dict[str, object]:
    return {"type": "say", "match_id": match_id, "code": code}


async def test_said_reaches_both_players_and_no_spectator(live_server: LiveServer) -> None:
    async with make_duel(live_server) as duel:
        ann, bob = duel.client(duel.ann), duel.client(duel.bob)
        eve = duel.client(await signup(duel.http, "Eve"))
        for client in (ann, bob, eve):
            await client.connect()
        match = duel.match_id
        for client in (ann, bob):  # both games over: anybody may watch the match
            await client.request({"type": "open_game", "match_id": match}, "snapshot")
            await client.request({"type": "finish", "match_id": match, "seq": 1}, "ack")
        watched = await eve.request({"type": "spectate", "match_id": match,
                                     "player_id": duel.ann.id}, "snapshot")
        assert watched["role"] == "spectator"

        await ann.send(say(match, "well_played"))  # at the result: still said
        for client in (ann, bob):
            said = await client.until("said")
            assert said == {"type": "said", "n": said["n"], "match_id": match,
                            "player_id": duel.ann.id, "code": "well_played"}
        await no_said(eve)
        # A spectator says nothing at the table.
        refused = await eve.request(say(match), "error")
        assert refused["code"] == "not_seated"
        await no_said(ann)


async def test_free_text_is_no_message(live_server: LiveServer) -> None:
    async with make_duel(live_server) as duel:
        ann = duel.client(duel.ann)
        await ann.connect()
        refused = await ann.request(say(duel.match_id, "you are slow"), "error")
        assert refused["code"] == "bad_message"
        extra = {**say(duel.match_id), "text": "hi"}
        assert (await ann.request(extra, "error"))["code"] == "bad_message"


async def test_an_ignore_keeps_the_message_from_the_other_player(
        live_server: LiveServer) -> None:
    async with make_duel(live_server) as duel:
        ann, bob = duel.client(duel.ann), duel.client(duel.bob)
        for client in (ann, bob):
            await client.connect()
        ignored = await duel.http.post("/api/me/ignores", headers=duel.bob.auth,
                                       json={"name": duel.ann.name})
        assert ignored.status_code == 201, ignored.text
        await ann.send(say(duel.match_id))
        assert (await ann.until("said"))["player_id"] == duel.ann.id  # her own tab sees it
        await no_said(bob)
        # Either way: Bob, who ignores Ann, does not reach her either.
        await bob.send(say(duel.match_id, "rematch"))
        assert (await bob.until("said"))["code"] == "rematch"
        await no_said(ann)
        unignored = await duel.http.delete(f"/api/me/ignores/{duel.ann.id}",
                                           headers=duel.bob.auth)
        assert unignored.status_code == 204
        await ann.send(say(duel.match_id, "well_played"))
        assert (await bob.until("said"))["code"] == "well_played"


async def test_three_at_once_then_refused_per_player_not_per_connection(
        live_server: LiveServer) -> None:
    settings = Settings()
    assert (settings.say_burst, settings.say_every_seconds) == (3, 10.0)  # docs/protocol.md
    async with make_duel(live_server) as duel:
        ann, ann_again, bob = (duel.client(duel.ann), duel.client(duel.ann),
                               duel.client(duel.bob))
        for client in (ann, ann_again, bob):
            await client.connect()
        for code in ("good_luck", "well_played"):
            await ann.send(say(duel.match_id, code))
            await bob.until("said", code=code)
        await ann_again.send(say(duel.match_id, "rematch"))  # her second tab: same bucket
        await bob.until("said", code="rematch")
        refused = await ann_again.request(say(duel.match_id), "error")
        assert refused["code"] == "rate_limited" and "retry in" in refused["message"]
        refused = await ann.request(say(duel.match_id), "error")
        assert refused["code"] == "rate_limited"
        await no_said(bob)
        # Bob has his own allowance.
        await bob.send(say(duel.match_id, "good_luck"))
        await ann.until("said", code="good_luck", player_id=duel.bob.id)
