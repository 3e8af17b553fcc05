"""A log replayed (app/rooms/seat_log.py): ``actions_of`` and ``replay_log``, the one
replay of a logged game behind duels' and solo games' rebuilds, records and replays."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.actions import Move
from app.engine.deal import deal
from app.engine.game import replay
from app.engine.rules import preset
from app.rooms.seat_log import actions_of, replay_log
from app.rooms.store import StoredAction
from tests.support.play import legal_walk


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 10**6), st.lists(st.integers(0, 10**6), max_size=40), st.randoms())
def test_a_log_in_any_order_replays_to_the_position_played(
        number: int, picks: list[int], shuffler: random.Random) -> None:
    start = deal(number, preset("classic", 2))
    state, played = legal_walk(start, picks)
    log = [StoredAction(seq, action.to_json(), float(seq))
           for seq, action in enumerate(played, start=1)]
    shuffler.shuffle(log)  # a database may return any order
    assert actions_of(log) == tuple(played)
    assert replay_log(start, log) == state == replay(start, played)


def test_actions_come_in_seq_order_as_rule_book_actions() -> None:
    log = [StoredAction(2, {"op": "deal"}, 0.0),
           StoredAction(1, {"op": "move", "from": 3, "to": 7, "count": 1}, 0.0)]
    first, second = actions_of(log)
    assert first == Move(3, 7, 1) and second.to_json() == {"op": "deal"}
