"""Whole duels over a real uvicorn server with real WebSocket clients, every frame checked."""

import json
from typing import Any

import websockets

from app.engine.deal import deal
from app.engine.layout import state_from_layout, state_to_layout
from app.engine.rules import rules_from_json
from app.engine.solver import solvable_deal, solve
from tests.support.duel_layouts import RULES, WINNING_LINE, near_finished_layout
from tests.support.leaks import check_frames, positions
from tests.support.live import Client, Duel, LiveServer, make_duel, signup


def act(match_id: int, seq: int, action: dict[str, Any]) -> dict[str, Any]:
    return {"type": "action", "match_id": match_id, "seq": seq, "action": action}


async def seated_pair_and_eve(duel: Duel) -> tuple[Client, Client, Client]:
    """Ann and Bob (seated in the duel) and Eve (a stranger to it), all connected."""
    eve_account = await signup(duel.http, "Eve")
    clients = duel.client(duel.ann), duel.client(duel.bob), duel.client(eve_account)
    for client in clients:
        await client.connect()
    return clients


async def test_a_whole_duel_one_wins_one_finishes_and_nothing_leaks(
    live_server: LiveServer,
) -> None:
    async with make_duel(live_server) as duel:
        ann, bob, eve = await seated_pair_and_eve(duel)
        match = duel.match_id

        mine = await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        assert mine["role"] == "player" and mine["seq"] == 0 and mine["status"] == "playing"
        assert mine["opponent"]["status"] == "not_started"
        # REST says a game not opened yet with the WebSocket's word (docs/api.md).
        rest = (await duel.http.get(f"/api/matches/{match}")).json()
        assert {g["player_id"]: g["status"] for g in rest["games"]} == {
            duel.ann.id: mine["status"], duel.bob.id: mine["opponent"]["status"]}
        theirs = await bob.request({"type": "open_game", "match_id": match}, "snapshot")
        assert theirs["opponent"]["status"] == "playing" and theirs["opponent"]["online"]

        refused = await bob.request({"type": "spectate", "match_id": match}, "error")
        assert refused["code"] == "spectate_refused"
        stranger = await eve.request({"type": "spectate", "match_id": match,
                                      "player_id": duel.ann.id}, "error")
        assert stranger["code"] == "spectate_refused"

        for seq, action in enumerate(WINNING_LINE[:5], start=1):
            ack = await ann.request(act(match, seq, action), ("ack", "reject"))
            assert ack["type"] == "ack" and ack["seq"] == seq
        progress = await bob.until("progress", match_id=match)
        assert set(progress["progress"]) == {"player_id", "score", "actions", "runs",
                                             "time_left_ms", "at_ms", "status", "online",
                                             "start_deadline"}

        ack = await bob.request(act(match, 1, WINNING_LINE[0]), "ack")
        assert ack["score"] == -1
        done = await bob.request({"type": "finish", "match_id": match, "seq": 2}, "ack")
        assert done["status"] == "finished" and done["score"] == -1
        over = await bob.until("game_over", player_id=duel.bob.id)
        assert over["reason"] == "finished"

        watched = await bob.request({"type": "spectate", "match_id": match}, "snapshot")
        assert watched["role"] == "spectator" and watched["player_id"] == duel.ann.id
        assert watched["seq"] == 5
        late = await bob.request(act(match, 3, WINNING_LINE[1]), "reject")
        assert late["code"] == "game_over"

        for seq, action in enumerate(WINNING_LINE[5:], start=6):
            ack = await ann.request(act(match, seq, action), ("ack", "reject"))
            assert ack["type"] == "ack", ack
            step = await bob.until("watch", seq=seq)
            assert step["view"] == ack["view"] and step["player_id"] == duel.ann.id
        assert ack["status"] == "won" and ack["events"][-1] == {"kind": "won"}

        results = [await c.until("match_result", timeout=10) for c in (ann, bob)]
        assert results[0] == {**results[1], "n": results[0]["n"]}
        result = results[0]
        assert result["winner_id"] == duel.ann.id
        scores = {r["player_id"]: r["score"] for r in result["results"]}
        assert scores == {duel.ann.id: 215, duel.bob.id: -1}
        assert {r["player_id"]: r["name"] for r in result["results"]} == {
            duel.ann.id: duel.ann.name, duel.bob.id: duel.bob.name}
        # A rated table, but Bob finished after one move within seconds: an aborted game
        # for ratings (docs/ratings.md), the result stands.
        assert all(r["rating_before"] is None and r["rating_after"] is None
                   for r in result["results"])
        assert result["deal"]["layout"] == near_finished_layout()

        watched_now = await eve.request({"type": "spectate", "match_id": match,
                                         "player_id": duel.ann.id}, "snapshot")
        assert watched_now["status"] == "won"
        replays = {}
        for player in (duel.ann.id, duel.bob.id):
            replay = await eve.request({"type": "get_replay", "match_id": match,
                                        "player_id": player}, "replay")
            replays[player] = replay["record"]["moves"]
        assert replays[duel.ann.id] == WINNING_LINE
        assert replays[duel.bob.id] == WINNING_LINE[:1]

        start = state_from_layout(rules_from_json(RULES), near_finished_layout())
        states = {player: positions(start, moves) for player, moves in replays.items()}
        checked = check_frames(duel.log.frames, states)
        assert checked > 60
        for client in (ann, bob, eve):
            await client.close()


async def test_duplicate_stale_and_early_sequence_numbers(live_server: LiveServer) -> None:
    async with make_duel(live_server) as duel:
        ann = duel.client(duel.ann)
        await ann.connect()
        match = duel.match_id
        await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        first = await ann.request(act(match, 1, WINNING_LINE[0]), "ack")
        again = await ann.request(act(match, 1, WINNING_LINE[0]), "ack")
        assert again["duplicate"] is True and again["view"] == first["view"]
        assert again["view"]["actions"] == 1  # answered again, not applied twice
        await ann.request(act(match, 2, WINNING_LINE[1]), "ack")
        stale = await ann.request(act(match, 1, WINNING_LINE[2]), "reject")
        assert stale["code"] == "stale_seq" and stale["next_seq"] == 3
        assert stale["view"]["actions"] == 2
        early = await ann.request(act(match, 7, WINNING_LINE[2]), "reject")
        assert early["code"] == "bad_seq" and early["next_seq"] == 3
        illegal = await ann.request(act(match, 3, {"op": "flip", "col": 1}), "reject")
        assert illegal["code"] == "nothing_to_flip" and illegal["view"]["actions"] == 2
        ok = await ann.request(act(match, 3, WINNING_LINE[2]), "ack")
        assert ok["view"]["actions"] == 3
        await ann.close()


async def test_malformed_and_oversized_frames_get_a_clear_error_and_change_nothing(
    live_server: LiveServer,
) -> None:
    async with make_duel(live_server) as duel:
        ann = duel.client(duel.ann)
        await ann.connect()
        match = duel.match_id
        before = await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        cases: list[tuple[str | bytes, str]] = [
            ("this is not json", "bad_json"),
            (b"\x00\x01binary", "binary_frame"),
            ('{"type": "teleport"}', "bad_message"),
            ('{"type": "action", "match_id": 1}', "bad_message"),
            (json.dumps({**act(match, 1, {"op": "deal"}), "extra": 1}), "bad_message"),
            (json.dumps(act(match, 1, {"op": "deal", "pad": "x" * 100_000})),
             "frame_too_large"),
            ('[1, 2, 3]', "bad_message"),
        ]
        for frame, code in cases:
            await ann.send_raw(frame)
            error = await ann.until("error")
            assert error["type"] == "error" and error["code"] == code, (frame[:60], error)
            assert error["message"]
        bad_action = await ann.request(act(match, 1, {"op": "move", "from": 1}), "reject")
        assert bad_action["code"] == "bad_action"
        after = await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        assert after["view"] == before["view"] and after["seq"] == 0
        assert (await ann.request({"type": "ping"}, "pong"))["type"] == "pong"
        await ann.close()


async def test_a_bad_token_or_no_hello_is_refused(live_server: LiveServer) -> None:
    async with make_duel(live_server) as duel:
        async with websockets.connect(live_server.ws) as socket:
            await socket.send('{"type": "hello", "v": 1, "token": "forged"}')
            assert '"not_authenticated"' in str(await socket.recv())
        async with websockets.connect(live_server.ws) as socket:
            await socket.send('{"type": "ping"}')
            assert '"hello_first"' in str(await socket.recv())
        # A token on the URL is not read (access logs record URLs): only the hello's counts.
        url = f"{live_server.ws}?token={duel.bob.token}"
        async with websockets.connect(url) as socket:
            await socket.send('{"type": "hello", "v": 1}')
            assert '"not_authenticated"' in str(await socket.recv())


async def test_a_solvable_deal_is_won_with_the_solvers_actions_while_the_loser_watches(
    live_server: LiveServer,
) -> None:
    rules = rules_from_json({"preset": "duel", "suits": 1})
    found = solvable_deal(7, 1)  # the solver's mapping: deal 7 → a deal it has won
    start = deal(found.source, rules)
    solution = solve(start)
    assert solution.solved
    line = [action.to_json() for action in solution.actions]
    async with make_duel(live_server) as duel:
        layout = state_to_layout(start)
        put = await duel.http.put(f"/api/test/matches/{duel.match_id}/layout",
                                  headers=duel.ann.auth, json={"layout": layout})
        assert put.status_code == 200, put.text
        ann, bob = duel.client(duel.ann), duel.client(duel.bob)
        await ann.connect()
        await bob.connect()
        match = duel.match_id
        await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        await bob.request({"type": "open_game", "match_id": match}, "snapshot")
        for seq, action in enumerate(line[:3], start=1):
            await bob.request(act(match, seq, action), "ack")
        await bob.request({"type": "finish", "match_id": match, "seq": 4}, "ack")
        await bob.request({"type": "spectate", "match_id": match}, "snapshot")

        for seq, action in enumerate(line, start=1):
            reply = await ann.request(act(match, seq, action), ("ack", "reject"))
            assert reply["type"] == "ack", reply
        assert reply["status"] == "won" and len(reply["view"]["removed"]) == 8
        watched = await bob.until("watch", seq=len(line))
        assert watched["view"] == reply["view"]
        result = await bob.until("match_result")
        assert result["winner_id"] == duel.ann.id
        assert result["deal"]["layout"] == layout

        replays = {}
        for player in (duel.ann.id, duel.bob.id):
            replay = await ann.request({"type": "get_replay", "match_id": match,
                                        "player_id": player}, "replay")
            assert replay["record"]["layout"] == layout  # the cards, not a deal number
            replays[player] = replay["record"]["moves"]
        states = {player: positions(start, moves) for player, moves in replays.items()}
        assert check_frames(duel.log.frames, states) > 2 * len(line)
        await ann.close()
        await bob.close()


async def test_hints_answer_my_own_game_only_and_following_them_wins_without_leaks(
    live_server: LiveServer,
) -> None:
    async with make_duel(live_server) as duel:
        ann, bob, eve = await seated_pair_and_eve(duel)
        match = duel.match_id
        ask = {"type": "hint", "match_id": match}

        assert (await eve.request(ask, "error"))["code"] == "not_seated"
        assert (await bob.request(ask, "error"))["code"] == "not_opened"
        await bob.request({"type": "open_game", "match_id": match}, "snapshot")
        await bob.request({"type": "finish", "match_id": match, "seq": 1}, "ack")
        assert (await bob.request(ask, "error"))["code"] == "game_over"

        await ann.request({"type": "open_game", "match_id": match}, "snapshot")
        hints = 0
        for seq in range(1, 40):
            hint = await ann.request(ask, "hint")
            assert "n" not in hint and hint["match_id"] == match and hint["reason"]
            assert hint["action"] is not None, hint
            hints += 1
            ack = await ann.request(act(match, seq, hint["action"]), ("ack", "reject"))
            assert ack["type"] == "ack" and ack["seq"] == seq, (hint, ack)
            if ack["status"] == "won":
                break
        assert ack["status"] == "won" and hints == 20  # the winning line takes 19

        result = await ann.until("match_result")
        assert result["winner_id"] == duel.ann.id
        replays = {}
        for player in (duel.ann.id, duel.bob.id):
            replay = await ann.request({"type": "get_replay", "match_id": match,
                                        "player_id": player}, "replay")
            replays[player] = replay["record"]["moves"]
        start = state_from_layout(rules_from_json(RULES), near_finished_layout())
        states = {player: positions(start, moves) for player, moves in replays.items()}
        checked = check_frames(duel.log.frames, states)
        first_result = next(i for i, (_, f) in enumerate(duel.log.frames)
                            if f["type"] == "match_result")
        assert checked == first_result
        hint_frames = [f for _, f in duel.log.frames[:first_result] if f["type"] == "hint"]
        assert len(hint_frames) == hints  # every hint answer went through the leak check
        for client in (ann, bob, eve):
            await client.close()
