"""The load bot picks only legal actions from the public view, whatever the position."""

import random

import pytest

from app.engine.actions import action_from_json
from app.engine.deal import deal
from app.engine.game import apply, check, legal_moves
from app.engine.rules import preset
from app.engine.view import player_view
from bench.bot import as_read, choose
from bench.bot import legal_moves as bot_moves


@pytest.mark.parametrize(("preset_name", "suits"), [("duel", 1), ("duel", 2), ("classic", 4)])
def test_every_bot_action_is_legal_and_it_sees_every_legal_move(
    preset_name: str, suits: int
) -> None:
    rules = preset(preset_name, suits)
    manual = rules.to_json().get("flip") == "manual" or preset_name == "duel"
    rng = random.Random(7)
    for number in (1, 2, 3):
        state = deal(number, rules)
        for _ in range(150):
            view = as_read(player_view(state))  # as a client reads it
            engine_moves = {m.to_json()["from"] * 1000 + m.to_json()["to"] * 10
                            + m.to_json()["count"] for m in legal_moves(state)}
            listed = bot_moves(view, manual_flip=manual)
            seen = {m["from"] * 1000 + m["to"] * 10 + m["count"] for m in listed}
            assert seen == engine_moves
            assert len({(m["from"], m["to"], m["count"]) for m in listed}) == len(listed)
            # In the order of (source, count, target), whatever shortcut finds them: a
            # seeded run chooses the same actions as it always did.
            assert listed == sorted(listed, key=lambda m: (m["from"], m["count"], m["to"]))
            choice = choose(view, manual_flip=manual, rng=rng)
            if choice is None:
                break
            action = action_from_json(choice)
            check(state, action)  # raises IllegalAction if the bot got it wrong
            state, _ = apply(state, action)
