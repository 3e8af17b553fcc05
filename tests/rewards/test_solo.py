"""Solo options: the rules and the start they give, and their JSON form."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.daily import daily_deal_number, daily_start
from app.engine.deal import DealNumberError, deal
from app.engine.deal_numbers import DealNumberRangeError
from app.engine.game import replay
from app.engine.record import record_from_json
from app.engine.rules import preset
from app.engine.solver.solvable import solvable_deal
from app.rewards.solo import (
    DAILY_OPTIONS,
    SoloOptions,
    SoloOptionsError,
    daily_game,
    options_from_json,
    solo_start,
)
from app.scoring.replay import replay_record


def test_the_defaults_are_solvable_only_and_the_classic_rule() -> None:
    options = SoloOptions(suits=2)
    assert (options.solvable_only, options.relaxed) == (True, False)
    assert options.rules() == preset("classic", 2)
    assert SoloOptions(4, relaxed=True).rules() == preset("relaxed", 4)


def test_solo_rules_flip_automatically_undo_everything_and_show_the_windows_score() -> None:
    for relaxed in (False, True):
        rules = SoloOptions(1, relaxed=relaxed).rules()
        assert (rules.flip, rules.undo, rules.scoring) == ("auto", "all", "windows")
        assert rules.deal_over_empty is relaxed


@given(st.sampled_from([1, 2, 4]), st.booleans(), st.booleans())
def test_options_round_trip_through_json(suits: int, solvable: bool, relaxed: bool) -> None:
    options = SoloOptions(suits, solvable, relaxed)
    assert options_from_json(options.to_json()) == options


def test_json_may_leave_out_the_flags() -> None:
    assert options_from_json({"suits": 4}) == SoloOptions(4, True, False)


@pytest.mark.parametrize(
    "data,match",
    [
        ([2], "object"),
        ({}, "need 'suits'"),
        ({"suits": 3}, "suits must be 1, 2 or 4"),
        ({"suits": "2"}, "suits must be"),
        ({"suits": True}, "suits must be"),
        ({"suits": 2, "relaxed": 1}, "relaxed must be true or false"),
        ({"suits": 2, "solvable_only": None}, "solvable_only"),
        ({"suits": 2, "seed": 7}, "unknown solo option"),
    ],
)
def test_bad_options_are_refused_with_their_reason(data: object, match: str) -> None:
    with pytest.raises(SoloOptionsError, match=match):
        options_from_json(data)


def test_a_random_deal_is_the_generator_deal_of_the_number_itself() -> None:
    start = solo_start(777, SoloOptions(4, solvable_only=False, relaxed=True))
    assert (start.number, start.source, start.difficulty) == (777, 777, None)
    assert start.state == deal(777, preset("relaxed", 4))


def test_a_solvable_deal_is_the_mapped_deal_and_its_line_wins_it() -> None:
    start = solo_start(3, SoloOptions(2))
    found = solvable_deal(3, 2)
    assert (start.number, start.source, start.difficulty) == (3, found.source, found.difficulty)
    assert replay(start.state, found.solution).won


def test_the_same_number_and_options_give_the_same_deal() -> None:
    assert solo_start(42, SoloOptions(1)) == solo_start(42, SoloOptions(1))
    assert solo_start(42, SoloOptions(1)).state != solo_start(43, SoloOptions(1)).state


def test_a_solo_record_names_the_source_deal_and_replays() -> None:
    start = solo_start(5, SoloOptions(1))
    line = solvable_deal(5, 1).solution
    record = start.record(line).to_json()
    assert record["rules"] == {"preset": "classic", "suits": 1}
    assert record["deal"] == {"number": start.source}
    report = replay_record(record_from_json(record))
    assert report.all_legal and report.game.state.won


@pytest.mark.parametrize("number,error", [(0, DealNumberRangeError),
                                          (2**48, DealNumberRangeError),
                                          (12.0, DealNumberError)])
def test_deal_numbers_outside_the_players_range_are_refused(number: object,
                                                            error: type[Exception]) -> None:
    with pytest.raises(error):
        solo_start(number, SoloOptions(1))  # type: ignore[arg-type]


def test_the_daily_game_is_solo_deal_n_with_the_daily_options() -> None:
    day = date(2025, 1, 13)
    game = daily_game(day)
    assert game.options == DAILY_OPTIONS == SoloOptions(2)
    assert game == solo_start(daily_deal_number(day), DAILY_OPTIONS)
    assert game.state == daily_start(day)
