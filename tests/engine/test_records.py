"""Game records: every invalid case of the rule book is refused with a clear RecordError."""

import copy
import json
from typing import Any

import pytest

from app.engine.actions import Deal, Flip, Move, Undo
from app.engine.deal import deal
from app.engine.layout import state_to_layout
from app.engine.record import Record, RecordError, load_record, record_from_json
from app.engine.rules import preset


def base(preset_name: str = "classic", suits: int = 2) -> dict[str, Any]:
    state = deal(5, preset(preset_name, suits))
    return {"rules": {"preset": preset_name, "suits": suits}, "layout": state_to_layout(state)}


def refused(data: object, *fragments: str) -> str:
    with pytest.raises(RecordError) as caught:
        record_from_json(data)
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_a_minimal_record_is_valid_and_moves_may_be_left_out() -> None:
    record = record_from_json(base())
    assert isinstance(record, Record) and record.actions == ()
    assert state_to_layout(record.start) == base()["layout"]


def test_a_deal_number_record() -> None:
    record = record_from_json({"rules": {"preset": "duel", "suits": 1}, "deal": {"number": 9}})
    assert record.deal_number == 9
    assert record.start.position == deal(9, preset("duel", 1)).position
    assert record.to_json()["deal"] == {"number": 9}


def test_all_four_ops_parse() -> None:
    data = base()
    data["moves"] = [
        {"op": "move", "from": 3, "to": 7, "count": 2},
        {"op": "deal"},
        {"op": "flip", "col": 4},
        {"op": "undo"},
    ]
    assert record_from_json(data).actions == (Move(3, 7, 2), Deal(), Flip(4), Undo())


def test_rule_options_override_the_preset() -> None:
    data = base()
    data["rules"] = {"preset": "classic", "suits": 2, "scoring": "aisleriot", "flip": "auto"}
    rules = record_from_json(data).rules
    assert rules.scoring == "aisleriot" and rules.undo == "all"
    assert rules.to_json() == {"preset": "classic", "suits": 2, "scoring": "aisleriot"}


@pytest.mark.parametrize(
    ("rules", "fragment"),
    [
        ({"suits": 2}, "preset"),
        ({"preset": "classic"}, "suits"),
        ({"preset": "spiderette", "suits": 2}, "preset"),
        ({"preset": ["classic"], "suits": 2}, "preset"),
        ({"preset": "classic", "suits": 3}, "suits"),
        ({"preset": "classic", "suits": "2"}, "suits"),
        ({"preset": "classic", "suits": True}, "suits"),
        ({"preset": "classic", "suits": 2, "timer": 5}, "unknown rule option"),
        ({"preset": "classic", "suits": 2, "flip": "sometimes"}, "flip"),
        ({"preset": "classic", "suits": 2, "deal_over_empty": "yes"}, "deal_over_empty"),
        ({"preset": "classic", "suits": 2, "deal_over_empty": 1}, "deal_over_empty"),
        ({"preset": "classic", "suits": 2, "undo": "none"}, "undo"),
        ({"preset": "classic", "suits": 2, "scoring": "vegas"}, "scoring"),
        ("classic", "rules"),
    ],
)
def test_bad_rules(rules: object, fragment: str) -> None:
    data = base()
    data["rules"] = rules
    refused(data, fragment)


def test_rules_are_required() -> None:
    data = base()
    del data["rules"]
    refused(data, "rules")


@pytest.mark.parametrize(
    ("move", "fragment"),
    [
        ({"op": "jump"}, "unknown op"),
        ({"op": ["move"]}, "unknown op"),
        ({}, "unknown op"),
        ({"op": "move", "from": 1, "to": 2}, "count"),
        ({"op": "move", "from": 1, "count": 1}, "to"),
        ({"op": "move", "from": "1", "to": 2, "count": 1}, "from"),
        ({"op": "move", "from": 1.0, "to": 2, "count": 1}, "from"),
        ({"op": "move", "from": True, "to": 2, "count": 1}, "from"),
        ({"op": "move", "from": 1, "to": 2, "count": None}, "count"),
        ({"op": "flip"}, "col"),
        ({"op": "flip", "col": "4"}, "col"),
        ({"op": "deal", "col": 1}, "unknown field"),
        ({"op": "undo", "steps": 2}, "unknown field"),
        ("d", "object"),
    ],
)
def test_bad_actions_make_the_record_invalid(move: object, fragment: str) -> None:
    data = base()
    data["moves"] = [{"op": "deal"}, move]
    refused(data, "moves[1]", fragment)


def test_moves_must_be_a_list() -> None:
    data = base()
    data["moves"] = {"op": "deal"}
    refused(data, "moves")


def test_well_formed_but_illegal_values_are_not_invalid() -> None:
    data = base()
    data["moves"] = [
        {"op": "move", "from": 12, "to": 3, "count": 1},
        {"op": "move", "from": 3, "to": 3, "count": 1},
        {"op": "move", "from": 3, "to": 4, "count": 0},
        {"op": "move", "from": 3, "to": 4, "count": -5},
        {"op": "flip", "col": -1},
    ]
    assert len(record_from_json(data).actions) == 5


def test_exactly_one_of_layout_and_deal() -> None:
    data = base()
    data["deal"] = {"number": 1}
    refused(data, "exactly one")
    del data["deal"], data["layout"]
    refused(data, "exactly one")


@pytest.mark.parametrize("spec", [{"number": 0}, {"number": "7"}, {"number": 1.5}, {}, 7,
                                  {"number": 3, "version": 1}])
def test_bad_deal_specs(spec: object) -> None:
    refused({"rules": {"preset": "duel", "suits": 1}, "deal": spec}, "deal")


def test_unknown_top_level_field() -> None:
    data = base()
    data["comment"] = "hi"
    refused(data, "unknown field", "comment")


def test_the_tableau_must_have_exactly_10_columns() -> None:
    data = base()
    data["layout"]["tableau"].pop()
    refused(data, "10 columns")
    data = base()
    data["layout"]["tableau"].append({"down": [], "up": []})
    refused(data, "10 columns")


def test_unknown_card_names_are_named() -> None:
    for name in ("1s", "Kx", "10h", "ks", "", 13, None):
        data = base()
        data["layout"]["tableau"][3]["up"] = [name]
        refused(data, "tableau[3].up[0]", "not a card name")


def test_the_stock_must_be_a_multiple_of_10() -> None:
    data = base()
    moved = data["layout"]["stock"].pop()
    data["layout"]["tableau"][0]["up"].append(moved)
    refused(data, "multiple of 10")


def test_the_cards_must_be_those_of_the_suit_count() -> None:
    data = base(suits=2)
    data["layout"]["tableau"][4]["up"] = ["Kd"]  # no diamonds in a 2-suit game
    message = refused(data, "not those of a 2-suit game", "too many Kd")
    assert "missing" in message
    data = base(suits=2)
    data["layout"]["stock"][0] = data["layout"]["stock"][1]
    refused(data, "2-suit")


def test_one_suit_game_has_only_spades() -> None:
    data = base(suits=1)
    data["layout"]["stock"][0] = "Ah"
    refused(data, "1-suit", "Ah")


def removed_layout(suits: int, removed: list[str]) -> dict[str, Any]:
    """A layout with the given runs already removed and the rest spread over the columns."""
    data = base(suits=suits)
    layout = data["layout"]
    for suit in removed:
        for rank in "A23456789TJQK":
            card = rank + suit
            for where in [layout["stock"]] + [c["down"] for c in layout["tableau"]]:
                if card in where:
                    where.remove(card)
                    break
            else:
                for column in layout["tableau"]:
                    if card in column["up"]:
                        column["up"].remove(card)
                        break
    cards = layout["stock"] + [card for c in layout["tableau"] for card in c["down"] + c["up"]]
    layout["stock"] = cards[: len(cards) // 10 * 10 - 30]
    rest = cards[len(layout["stock"]) :]
    layout["tableau"] = [{"down": [], "up": rest[i::10]} for i in range(10)]
    layout["removed"] = removed
    return data


def test_removed_runs_take_their_cards_away_and_count_towards_the_win() -> None:
    data = removed_layout(2, ["s", "h", "h"])
    record = record_from_json(data)
    assert record.start.removed == (0, 1, 1)
    assert len(record.start.all_cards()) == 104 - 39


def test_removed_suits_must_exist_and_not_exceed_the_runs_of_the_deck() -> None:
    data = base(suits=2)
    data["layout"]["removed"] = ["d"]
    refused(data, "no d")
    data["layout"]["removed"] = ["x"]
    refused(data, "removed", "not a suit")
    data["layout"]["removed"] = None
    refused(data, "removed", "list")
    data = base(suits=1)
    data["layout"]["removed"] = ["s"] * 9
    refused(data, "removed")
    data = base(suits=4)
    data["layout"]["removed"] = ["c", "c", "c"]
    refused(data, "only 2 runs of c")


def test_removed_without_taking_the_cards_away_is_refused() -> None:
    data = base(suits=2)
    data["layout"]["removed"] = ["s"]
    refused(data, "too many")


def test_a_layout_must_be_settled() -> None:
    data = base(suits=1)
    layout = data["layout"]
    run = [r + "s" for r in "KQJT98765432A"]
    cards = layout["stock"] + [card for c in layout["tableau"] for card in c["down"] + c["up"]]
    for card in run:
        cards.remove(card)
    layout["stock"] = cards[:40]
    layout["tableau"] = [{"down": [], "up": cards[40 + i :: 10]} for i in range(10)]
    layout["tableau"][0]["up"] += run
    refused(data, "not settled", "column 0", "completed run")


def test_face_down_cards_without_a_face_up_card_on_top() -> None:
    data = base("classic", 2)
    column = data["layout"]["tableau"][6]
    column["down"] += column["up"]
    column["up"] = []
    refused(data, "not settled", "column 6")
    data["rules"]["preset"] = "duel"  # fine under manual flips
    assert record_from_json(data).start.columns[6].up == ()
    data["rules"] = {"preset": "duel", "suits": 2, "flip": "auto"}
    refused(data, "not settled")


def test_layout_shape_errors() -> None:
    for bad_layout in ([], {"tableau": [], "stock": []}, {"stock": []}):
        data = base()
        data["layout"] = bad_layout
        refused(data, "layout")
    data = base()
    data["layout"]["tableau"][2] = ["Ks"]
    refused(data, "tableau[2]")
    data = base()
    data["layout"]["tableau"][2]["sideways"] = []
    refused(data, "tableau[2]")
    data = base()
    data["layout"]["deck"] = []
    refused(data, "unknown field", "deck")
    data = base()
    del data["layout"]["stock"]
    refused(data, "stock")


@pytest.mark.parametrize(
    "text",
    ["", "not json", "[1, 2]", "null", '{"rules": ', "[" * 100_000, '{"a": ' + "9" * 5000 + "}"],
)
def test_load_record_turns_every_bad_text_into_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        load_record(text)


def test_a_record_round_trips_through_its_json() -> None:
    data = copy.deepcopy(base("duel", 4))
    data["moves"] = [{"op": "move", "from": 3, "to": 7, "count": 2}, {"op": "undo"}]
    record = load_record(json.dumps(data))
    again = record.to_json(with_layout=True)
    assert again["layout"]["removed"] == []
    assert record_from_json(again).to_json(with_layout=True) == again
    assert again["moves"] == data["moves"] and again["rules"] == data["rules"]
