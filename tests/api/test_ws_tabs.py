"""Two tabs of one player on one server process: each follows the other's steps live,
and when both send the same seq at the same instant exactly one action is applied, the
other tab gets a ``seq_taken`` refusal with the fresh view, and nothing answered is lost."""

import asyncio
from typing import Any

from tests.support.duel_layouts import WINNING_LINE
from tests.support.live import Client, Duel, LiveServer, make_duel

MOVE_A = WINNING_LINE[0]  # column 1 → 9
MOVE_B = {"op": "move", "from": 3, "to": 8, "count": 1}  # legal before and after MOVE_A


def act(match_id: int, seq: int, action: dict[str, Any]) -> dict[str, Any]:
    return {"type": "action", "match_id": match_id, "seq": seq, "action": action}


async def two_tabs(duel: Duel) -> tuple[Client, Client]:
    """Ann connected twice, her game opened in both."""
    tabs = duel.client(duel.ann), duel.client(duel.ann)
    for tab in tabs:
        await tab.connect()
        await tab.request({"type": "open_game", "match_id": duel.match_id}, "snapshot")
    return tabs


async def answers_to(tab: Client, seq: int, count: int) -> list[dict[str, Any]]:
    """The next ``count`` acks and rejects for ``seq`` this tab receives, in order."""
    found: list[dict[str, Any]] = []
    while len(found) < count:
        frame = await tab.recv()
        if frame["type"] in ("ack", "reject") and frame["seq"] == seq:
            found.append(frame)
    return found


async def test_a_move_in_one_tab_reaches_the_other_and_its_next_move_counts(
        live_server: LiveServer) -> None:
    async with make_duel(live_server) as duel:
        one, two = await two_tabs(duel)
        ack = await one.request(act(duel.match_id, 1, MOVE_A), "ack")
        seen = await two.until("ack", seq=1)  # unasked: the other tab's step, as news
        assert seen["view"] == ack["view"] and seen["duplicate"] is False
        second = await two.request(act(duel.match_id, 2, MOVE_B), "ack")
        assert second["view"]["actions"] == 2 and second["duplicate"] is False
        assert (await one.until("ack", seq=2))["view"] == second["view"]


async def test_the_same_seq_from_two_tabs_at_once_applies_exactly_one(
        live_server: LiveServer) -> None:
    async with make_duel(live_server) as duel:
        one, two = await two_tabs(duel)
        await asyncio.gather(one.send(act(duel.match_id, 1, MOVE_A)),
                             two.send(act(duel.match_id, 1, MOVE_B)))
        # Every tab receives both answers: the applied step's ack, then the refusal.
        seen_one, seen_two = await answers_to(one, 1, 2), await answers_to(two, 1, 2)
        assert seen_one == seen_two
        ack, refusal = seen_one
        assert ack["type"] == "ack" and ack["duplicate"] is False
        assert refusal["type"] == "reject" and refusal["code"] == "seq_taken"
        assert refusal["next_seq"] == 2 and refusal["view"] == ack["view"]
        applied = MOVE_A if ack["events"][0]["from"] == MOVE_A["from"] else MOVE_B
        refused = MOVE_B if applied is MOVE_A else MOVE_A
        loser = two if applied is MOVE_A else one
        # The refused tab resyncs and plays its move again on the fresh position: the
        # log holds both, the acknowledged one first.
        again = await loser.request(act(duel.match_id, 2, refused), "ack")
        assert again["view"]["actions"] == 2
        snapshot = await one.request({"type": "open_game", "match_id": duel.match_id},
                                     "snapshot")
        assert snapshot["seq"] == 2 and snapshot["view"] == again["view"]
