"""Solo play over a real server: open, act, seq rules, rescue, auto-complete, resume."""

from __future__ import annotations

from typing import Any

import httpx

from app.engine.actions import action_from_json
from app.engine.game import push, replay
from app.engine.solver.solvable import solvable_deal
from app.rewards.assist import RESCUE_ACTIONS, auto_complete_available, rescue_actions
from app.rewards.solo import SoloOptions, solo_start
from tests.support.duel_layouts import WINNING_LINE
from tests.support.live import Account, Client, FrameLog, LiveServer, make_duel, signup


def act(game_id: int, seq: int, action: dict[str, Any]) -> dict[str, Any]:
    return {"type": "solo_action", "game_id": game_id, "seq": seq, "action": action}


async def new_game(http: httpx.AsyncClient, account: Account, number: int) -> int:
    created = await http.post("/api/solo/games", headers=account.auth,
                              json={"number": number, "options": {"suits": 1}})
    assert created.status_code == 201, created.text
    return int(created.json()["game"]["id"])


def assert_nothing_hidden(frames: list[tuple[int, dict[str, Any]]], source: int) -> None:
    """No face-down card, no stock order, no generator deal before the end."""
    over = False
    for _, frame in frames:
        view = frame.get("view")
        if view is not None:
            assert isinstance(view["stock"], int)
            assert all(isinstance(c["down"], int) for c in view["columns"])
        if frame["type"] == "solo_over":
            over = True
        elif not over:
            assert str(source) not in str(frame.get("source_deal", "")), frame


async def test_a_solo_game_with_a_rescue_and_the_auto_complete(live_server: LiveServer) -> None:
    number = 4
    line = solvable_deal(number, 1).solution
    start = solo_start(number, SoloOptions(1))
    log = FrameLog()
    async with httpx.AsyncClient(base_url=live_server.http, timeout=10) as http:
        ann = await signup(http, "Ann")
        game_id = await new_game(http, ann, number)
        client = Client(live_server, ann, log)
        await client.connect()
        early = await client.request(act(game_id, 1, line[0].to_json()), "solo_reject")
        assert early["code"] == "not_opened"
        snapshot = await client.request({"type": "solo_open", "game_id": game_id},
                                        "solo_snapshot")
        assert snapshot["number"] == number and snapshot["seq"] == 0
        for seq in (1, 2):
            ack = await client.request(act(game_id, seq, line[seq - 1].to_json()), "solo_ack")
            assert ack["seq"] == seq and ack["duplicate"] is False
        again = await client.request(act(game_id, 2, line[1].to_json()), "solo_ack")
        assert again["duplicate"] is True and again["view"] == ack["view"]
        stale = await client.request(act(game_id, 1, line[0].to_json()), "solo_reject")
        assert stale["code"] == "stale_seq" and stale["next_seq"] == 3

        hint = await client.request({"type": "solo_hint", "game_id": game_id}, "solo_hint")
        assert "n" not in hint and hint["game_id"] == game_id

        rescue = await client.request({"type": "solo_rescue", "game_id": game_id, "seq": 3},
                                      "solo_assist")
        assert rescue["verdict"] == "way_out" and rescue["points_cost"] == 250
        assert [s["seq"] for s in rescue["steps"]] == list(range(3, 3 + RESCUE_ACTIONS))
        assert rescue["seq"] == 2 + RESCUE_ACTIONS and rescue["rescues"] == 1
        repeated = await client.request(
            {"type": "solo_rescue", "game_id": game_id, "seq": 3}, "solo_assist")
        assert repeated == {**rescue, "duplicate": True, "n": repeated["n"]}

        # A restart: the game comes back from its log, as a snapshot on a new connection.
        await client.close()
        live_server.stop()
        live_server.start()
        await client.connect()
        resumed = await client.until("solo_snapshot", game_id=game_id)
        assert resumed["seq"] == rescue["seq"] and resumed["view"] == rescue["view"]

        # Play on with the solver's own line from here until the auto-complete is offered.
        state = replay(start.state, [*line[:2], *(action_from_json(s["action"])
                                                  for s in rescue["steps"])])
        rest = rescue_actions(state, n=500).actions
        seq = rescue["seq"]
        offered = False
        for action in rest:
            seq += 1
            answer = await client.request(act(game_id, seq, action.to_json()),
                                          ("solo_ack", "solo_reject"))
            assert answer["type"] == "solo_ack", answer
            state = push(state, action)
            if not auto_complete_available(state):  # offered only once the cards all show
                assert answer["auto_complete"] is False
            if answer["auto_complete"]:
                offered = True
                break
        assert offered
        # No paid rescue where the free auto-complete is offered: refused, nothing used.
        refused = await client.request(
            {"type": "solo_rescue", "game_id": game_id, "seq": seq + 1}, "solo_reject")
        assert refused["code"] == "auto_complete_ready" and refused["next_seq"] == seq + 1
        finish = await client.request(
            {"type": "solo_auto_complete", "game_id": game_id, "seq": seq + 1}, "solo_assist")
        assert finish["verdict"] == "ready" and finish["status"] == "won"
        assert {s["by"] for s in finish["steps"]} == {"auto_complete"}
        over = await client.until("solo_over", game_id=game_id)
        assert over["status"] == "won" and over["source_deal"] == start.source
        assert over["points_breakdown"]["rescue_cost"] == 250
        badge = await client.until("badge")  # announced after the game's end
        assert badge["badge"]["code"] == "first_win"
        assert badge["game"] == {"kind": "solo", "id": game_id}
        await client.close()
        held = (await http.get(f"/api/players/{ann.id}/badges")).json()
        assert held[0]["code"] == "first_win" and held[0]["game"]["id"] == game_id
        assert "on_my_own" not in {b["code"] for b in held}  # a rescue was used
        table = (await http.get("/api/badges")).json()
        assert len(table) == 15 and table[0]["code"] == "first_win"

        game = (await http.get(f"/api/solo/games/{game_id}")).json()
        assert game["status"] == "won" and game["rescues"] == 1 and game["auto_completed"]
        record = (await http.get(f"/api/solo/games/{game_id}/record")).json()
        assert record["deal"] == {"number": start.source}
        assert len(record["moves"]) == game["actions"]
    assert_nothing_hidden(log.frames, start.source)


async def test_only_the_player_may_play_a_game(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.http, timeout=10) as http:
        ann = await signup(http, "Ann")
        bob = await signup(http, "Bob")
        game_id = await new_game(http, ann, 9)
        client = Client(live_server, bob, FrameLog())
        await client.connect()
        await client.send({"type": "solo_open", "game_id": game_id})
        error = await client.until("error")
        assert error["code"] == "not_your_game"
        await client.send({"type": "solo_open", "game_id": 2**31 - 1})
        error = await client.until("error")
        assert error["code"] == "no_such_game"
        await client.close()


async def test_a_duel_badge_is_announced_after_the_match_result(
    live_server: LiveServer,
) -> None:
    async with make_duel(live_server) as duel:
        ann, bob = duel.client(duel.ann), duel.client(duel.bob)
        await ann.connect()
        await bob.connect()
        match = duel.match_id
        await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        await bob.request({"type": "open_game", "match_id": match}, "snapshot")
        # Both win (a Finish at once would be a duel too short to count: no badge); Bob
        # with a move taken back first, which costs him 2 points: Ann wins on points
        # (on time alone a busy machine could slow Ann's line more than Bob's).
        lines = {ann: WINNING_LINE, bob: [WINNING_LINE[0], {"op": "undo"}, *WINNING_LINE]}
        for player, line in lines.items():
            for seq, action in enumerate(line, start=1):
                await player.request({"type": "action", "match_id": match, "seq": seq,
                                      "action": action}, "ack")
        result = await ann.until("match_result")
        assert result["winner_id"] == duel.ann.id
        badge = await ann.until("badge")
        assert badge["n"] > result["n"] and badge["badge"]["code"] == "first_duel"
        assert badge["game"] == {"kind": "duel", "id": match}
        held = (await duel.http.get(f"/api/players/{duel.ann.id}/badges")).json()
        assert [b["code"] for b in held] == ["first_duel"]
        assert (await duel.http.get(f"/api/players/{duel.bob.id}/badges")).json() == []
        await ann.close()
        await bob.close()


async def test_a_daily_game_hides_its_number_and_deal_until_over(
    live_server: LiveServer,
) -> None:
    log = FrameLog()
    async with httpx.AsyncClient(base_url=live_server.http, timeout=30) as http:
        ann = await signup(http, "Ann")
        started = await http.post("/api/daily/start", headers=ann.auth)
        assert started.status_code == 201, started.text
        game_id = started.json()["id"]
        client = Client(live_server, ann, log)
        await client.connect()
        snapshot = await client.request({"type": "solo_open", "game_id": game_id},
                                        "solo_snapshot")
        assert snapshot["kind"] == "daily" and snapshot["number"] is None
        assert "source_deal" not in snapshot
        await client.close()
        await client.connect()  # a fresh connection: the opened daily comes back, hidden
        again = await client.until("solo_snapshot", game_id=game_id)
        assert again["number"] is None
        gave_up = await http.post(f"/api/solo/games/{game_id}/abandon", headers=ann.auth)
        over = await client.until("solo_over", game_id=game_id)  # told on the player's channel
        assert over["status"] == "abandoned"
        assert over["number"] == gave_up.json()["number"] is not None
        await client.close()


async def test_guided_hint_undo_to_winnable_and_cancel_over_the_socket(
        live_server: LiveServer) -> None:
    """Issue 24 over a real server: the guided hint (answered beside the connection's
    loop), undo to the last winnable position (the player's own undos) and solo_cancel
    (no answer of its own, nothing broken when nothing runs)."""
    number = 4
    line = solvable_deal(number, 1).solution
    log = FrameLog()
    async with httpx.AsyncClient(base_url=live_server.http, timeout=10) as http:
        ann = await signup(http, "Ann")
        game_id = await new_game(http, ann, number)
        client = Client(live_server, ann, log)
        await client.connect()
        await client.request({"type": "solo_open", "game_id": game_id}, "solo_snapshot")
        hint = await client.request({"type": "solo_hint", "game_id": game_id}, "solo_hint")
        assert hint["verdict"] == "line" and hint["action"] == line[0].to_json()
        for seq in (1, 2):
            await client.request(act(game_id, seq, line[seq - 1].to_json()), "solo_ack")
        await client.send({"type": "solo_cancel", "game_id": game_id})  # nothing runs
        back = await client.request({"type": "solo_undo_to_winnable", "game_id": game_id,
                                     "seq": 3}, "solo_assist")
        assert back["kind"] == "undo_to_winnable" and back["verdict"] == "way_out", back
        assert [s["by"] for s in back["steps"]] == ["player"] and back["seq"] == 3
        assert back["view"]["actions"] == 3
        after = await client.request({"type": "solo_hint", "game_id": game_id}, "solo_hint")
        assert after["verdict"] == "line" and after["action"] is not None
        assert not [f for _, f in log.frames if f["type"] == "error"]
        await client.close()
