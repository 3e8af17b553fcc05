"""Server clocks, reconnects and restarts, over a real uvicorn server."""

import asyncio
import json
from typing import Any

from tests.support.duel_layouts import WINNING_LINE
from tests.support.live import LiveServer, make_duel


def act(match_id: int, seq: int, action: dict[str, Any]) -> dict[str, Any]:
    return {"type": "action", "match_id": match_id, "seq": seq, "action": action}


async def test_the_server_times_out_a_disconnected_player(live_server: LiveServer) -> None:
    async with make_duel(live_server, clock=2) as duel:
        ann, bob = duel.client(duel.ann), duel.client(duel.bob)
        await ann.connect()
        await bob.connect()
        match = duel.match_id
        await bob.request({"type": "open_game", "match_id": match}, "snapshot")
        await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        await ann.request(act(match, 1, WINNING_LINE[0]), "ack")
        await ann.close()  # leaving does not pause the clock

        over = await bob.until("game_over", timeout=6, player_id=duel.ann.id)
        assert over["reason"] == "timed_out" and over["elapsed_ms"] == 2000
        gone = await bob.until("progress", timeout=6, match_id=match)
        assert gone["progress"]["time_left_ms"] is not None

        await ann.connect(resume=True)
        assert ann.welcome["resumed"] is True
        missed = await ann.until("game_over", player_id=duel.ann.id)
        assert missed["reason"] == "timed_out"
        late = await ann.request(act(match, 2, WINNING_LINE[1]), "reject")
        assert late["code"] == "game_over" and late["status"] == "timed_out"
        games = (await duel.http.get(f"/api/matches/{match}", headers=duel.ann.auth)).json()
        assert any(g["status"] == "timed_out" for g in games["games"]), games
        await ann.close()
        await bob.close()


async def test_a_reconnect_receives_exactly_the_missed_events(live_server: LiveServer) -> None:
    async with make_duel(live_server) as duel:
        ann, bob = duel.client(duel.ann), duel.client(duel.bob)
        await ann.connect()
        await bob.connect()
        match = duel.match_id
        await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        await ann.request(act(match, 1, WINNING_LINE[0]), "ack")
        await ann.request(act(match, 2, WINNING_LINE[1]), "ack")
        seen = ann.last_event
        await ann.close()

        await bob.request({"type": "open_game", "match_id": match}, "snapshot")
        for seq, action in enumerate(WINNING_LINE[:3], start=1):
            await bob.request(act(match, seq, action), "ack")

        await ann.connect(resume=True)
        assert ann.welcome["resumed"] is True and ann.welcome["last_event"] > seen
        missed = []
        while ann.last_event < ann.welcome["last_event"]:
            missed.append(await ann.recv())  # recv() asserts n goes up by exactly one
        bob_steps = [f["progress"]["actions"] for f in missed
                     if f["type"] == "progress" and f["progress"]["player_id"] == duel.bob.id]
        assert bob_steps[-3:] == [1, 2, 3]
        ack = await ann.request(act(match, 3, WINNING_LINE[2]), "ack")
        assert ack["view"]["actions"] == 3

        # Too old or unknown: no replay, a fresh snapshot instead.
        await ann.close()
        ann.stream = "not-a-stream"
        await ann.connect(resume=True)
        assert ann.welcome["resumed"] is False
        fresh = await ann.until("snapshot")
        assert fresh["seq"] == 3 and fresh["view"] == ack["view"]
        await ann.close()
        await bob.close()


async def test_after_a_restart_games_and_clocks_resume_from_storage(
    live_server: LiveServer,
) -> None:
    async with make_duel(live_server) as duel:
        ann = duel.client(duel.ann)
        await ann.connect()
        match = duel.match_id
        opened = await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        for seq, action in enumerate(WINNING_LINE[:4], start=1):
            last = await ann.request(act(match, seq, action), "ack")
        await ann.close()

        live_server.stop()
        await asyncio.sleep(1.0)
        live_server.start()

        await ann.connect(resume=True)
        assert ann.welcome["resumed"] is False  # a new process: a new stream
        snapshot = await ann.until("snapshot")
        assert snapshot["seq"] == 4 and snapshot["view"] == last["view"]
        assert snapshot["time_left_ms"] <= opened["time_left_ms"] - 1000  # kept running
        again = await ann.request(act(match, 4, WINNING_LINE[3]), "ack")
        assert again["duplicate"] is True and again["view"]["actions"] == 4
        for seq, action in enumerate(WINNING_LINE[4:], start=5):
            reply = await ann.request(act(match, seq, action), ("ack", "reject"))
            assert reply["type"] == "ack", json.dumps(reply)
        assert reply["status"] == "won"
        await ann.close()


async def test_resume_on_an_open_connection_always_says_how_it_went(
    live_server: LiveServer,
) -> None:
    """``resume_result`` comes first: refused with nothing to resync is no longer silence;
    accepted, the missed events follow it; refused, the fresh snapshots follow it."""
    async with make_duel(live_server) as duel:
        ann = duel.client(duel.ann)
        welcome = await ann.connect()
        await ann.send({"type": "resume", "stream": "not-a-stream", "last_event": 0})
        refused = await ann.recv()
        assert refused == {"type": "resume_result", "resumed": False,
                           "stream": welcome["stream"], "last_event": welcome["last_event"]}
        assert (await ann.request({"type": "ping"}, "pong")) == {"type": "pong"}  # no more

        match = duel.match_id
        await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        seen = ann.last_event
        acks = [await ann.request(act(match, seq, step), "ack")
                for seq, step in enumerate(WINNING_LINE[:2], start=1)]
        ann.drop_pending()
        await ann.send({"type": "resume", "stream": welcome["stream"], "last_event": seen})
        accepted = await ann.recv()
        assert accepted["resumed"] is True and accepted["last_event"] == acks[-1]["n"]
        ann.last_event = seen  # the replay numbers from there again
        replayed = [await ann.recv() for _ in range(accepted["last_event"] - seen)]
        assert [f["n"] for f in replayed if f["type"] == "ack"] == [a["n"] for a in acks]

        await ann.send({"type": "resume", "stream": "not-a-stream", "last_event": 1})
        assert (await ann.recv())["resumed"] is False
        fresh = await ann.recv()
        assert fresh["type"] == "snapshot" and fresh["seq"] == 2
        await ann.close()
