"""The presets are names for sets of options; every option can override its preset."""

import pytest

from app.engine.rules import OPTION_NAMES, RulesError, preset, rules_from_json, with_options

TABLE = {
    "classic": {"flip": "auto", "deal_over_empty": False, "undo": "all", "scoring": "windows"},
    "relaxed": {"flip": "auto", "deal_over_empty": True, "undo": "all", "scoring": "windows"},
    "duel": {"flip": "manual", "deal_over_empty": True, "undo": "moves", "scoring": "duel"},
}


@pytest.mark.parametrize("name", sorted(TABLE))
@pytest.mark.parametrize("suits", [1, 2, 4])
def test_the_rule_book_table(name: str, suits: int) -> None:
    rules = preset(name, suits)
    assert {option: getattr(rules, option) for option in OPTION_NAMES} == TABLE[name]
    assert rules.suits == suits and rules.preset == name
    assert rules.manual_flip == (TABLE[name]["flip"] == "manual")
    assert rules.to_json() == {"preset": name, "suits": suits}


def test_an_override_is_kept_and_written_back() -> None:
    rules = rules_from_json({"preset": "classic", "suits": 2, "scoring": "aisleriot"})
    assert rules.scoring == "aisleriot" and rules.flip == "auto"
    assert rules.to_json() == {"preset": "classic", "suits": 2, "scoring": "aisleriot"}
    # naming the preset's own value is no override
    same = rules_from_json({"preset": "duel", "suits": 1, "undo": "moves"})
    assert same.to_json() == {"preset": "duel", "suits": 1}


def test_with_options() -> None:
    rules = with_options(preset("duel", 2), flip="auto", undo="all")
    assert (rules.flip, rules.undo, rules.deal_over_empty) == ("auto", "all", True)
    assert with_options(rules) == rules
    with pytest.raises(RulesError):
        with_options(rules, flip="sideways")
