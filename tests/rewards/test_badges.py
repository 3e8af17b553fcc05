"""The 15 badges: each one earned, and each one missed just short of its rule."""

import re
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from app.engine.game import replay
from app.engine.solver.solvable import solvable_deal
from app.rewards.badges import (
    BADGE_CODES,
    BADGES,
    BadgeInputError,
    PlayerRecord,
    SettledFacts,
    badges_earned,
)
from app.rewards.fair_play import AssistCounts
from app.rewards.solo import SoloOptions, solo_start
from app.rewards.streaks import Streak

DOC = Path(__file__).resolve().parents[2] / "docs" / "badges.md"
ENDED = datetime(2025, 3, 10, 18, 30, tzinfo=UTC)


def solo(**changes: Any) -> SettledFacts:
    """A plain won 1-suit solo game that earns only first_win: slow, long, auto-completed
    (help that does not make it assisted: app/rewards/fair_play.py)."""
    facts = SettledFacts(kind="solo", suits=1, won=True, ended_at=ENDED, elapsed_ms=900_000,
                         actions=400, undos=3, auto_completed=True)
    return replace(facts, **changes)


def daily(**changes: Any) -> SettledFacts:
    return solo(kind="daily", suits=2, daily_date=date(2025, 3, 10), **changes)


def duel(**changes: Any) -> SettledFacts:
    base = dict(kind="duel", suits=2, won=True, ended_at=ENDED, elapsed_ms=600_000,
                actions=300, undos=2, own_score=180, opponent_score=150, rated=True)
    return SettledFacts(**{**base, **changes})


ONE_SOLO_WIN = PlayerRecord(solo_wins=1)
ONE_DAILY = PlayerRecord(daily_played=1, daily_wins=1, daily_streak=Streak(1, 1, None))
ONE_DUEL_WIN = PlayerRecord(duel_wins=1)

# code: (earns it, just short of it), each a (settled, history) pair
CASES: dict[str, tuple[tuple[SettledFacts, PlayerRecord], tuple[SettledFacts, PlayerRecord]]] = {
    "first_win": ((solo(), ONE_SOLO_WIN), (solo(won=False), PlayerRecord())),
    "two_suits": ((solo(suits=2), ONE_SOLO_WIN), (solo(suits=1), ONE_SOLO_WIN)),
    "four_suits": ((solo(suits=4), ONE_SOLO_WIN), (solo(suits=2), ONE_SOLO_WIN)),
    "no_undo": ((solo(undos=0), ONE_SOLO_WIN), (solo(undos=1), ONE_SOLO_WIN)),
    "quick": ((solo(elapsed_ms=299_999), ONE_SOLO_WIN), (solo(elapsed_ms=300_000), ONE_SOLO_WIN)),
    "lean": ((solo(actions=150), ONE_SOLO_WIN), (solo(actions=151), ONE_SOLO_WIN)),
    "on_my_own": ((solo(auto_completed=False), ONE_SOLO_WIN), (solo(), ONE_SOLO_WIN)),
    "wild_deal": ((solo(solvable_only=False), ONE_SOLO_WIN),
                  (solo(solvable_only=True), ONE_SOLO_WIN)),
    "centurion": ((solo(), PlayerRecord(solo_wins=60, daily_wins=40, daily_played=45)),
                  (solo(), PlayerRecord(solo_wins=60, daily_wins=39, daily_played=45))),
    "regular": ((daily(won=False), PlayerRecord(daily_played=7, daily_wins=2)),
                (daily(won=False), PlayerRecord(daily_played=6, daily_wins=2))),
    "week_streak": ((daily(), replace(ONE_DAILY, daily_played=7, daily_wins=7,
                                      daily_streak=Streak(7, 7, None))),
                    (daily(), replace(ONE_DAILY, daily_played=7, daily_wins=6,
                                      daily_streak=Streak(6, 6, None)))),
    "month_streak": ((daily(), replace(ONE_DAILY, daily_played=40, daily_wins=40,
                                       daily_streak=Streak(2, 30, None))),
                     (daily(), replace(ONE_DAILY, daily_played=40, daily_wins=40,
                                       daily_streak=Streak(29, 29, None)))),
    "first_duel": ((duel(), ONE_DUEL_WIN), (duel(won=False, own_score=150), PlayerRecord())),
    "duelist": ((duel(), PlayerRecord(duel_wins=10)), (duel(), PlayerRecord(duel_wins=9))),
    "comeback": ((duel(behind_at_opponent_finish=True), ONE_DUEL_WIN),
                 (duel(behind_at_opponent_finish=False), ONE_DUEL_WIN)),
}


def codes(settled: SettledFacts, history: PlayerRecord, already: frozenset[str] = frozenset()
          ) -> list[str]:
    return [award.code for award in
            badges_earned(settled=settled, history=history, already=already)]


def test_exactly_fifteen_badges_with_distinct_codes_each_with_a_case() -> None:
    assert len(BADGES) == 15 == len(set(BADGE_CODES))
    assert set(CASES) == set(BADGE_CODES)


@pytest.mark.parametrize("code", BADGE_CODES)
def test_each_badge_is_earned(code: str) -> None:
    settled, history = CASES[code][0]
    assert code in codes(settled, history)


@pytest.mark.parametrize("code", BADGE_CODES)
def test_each_badge_is_not_earned_just_short_of_its_rule(code: str) -> None:
    settled, history = CASES[code][1]
    assert code not in codes(settled, history)


def test_the_plain_game_of_the_cases_earns_only_a_first_win() -> None:
    assert codes(solo(), ONE_SOLO_WIN) == ["first_win"]
    assert codes(solo(won=False), PlayerRecord()) == []


def test_help_of_any_kind_loses_on_my_own() -> None:
    for help_used in ({"rescues": 1}, {"auto_completed": True}, {"hints": 2}):
        assert "on_my_own" not in codes(solo(**{"hints": 0, **help_used}), ONE_SOLO_WIN)


def test_any_assist_takes_away_the_skill_badges_the_auto_complete_does_not() -> None:
    """Quick, lean and without undo: earned by the player, not by the solver's rescues nor
    by following hints (a bot did, in 13 s: issue 24)."""
    skilful = solo(undos=0, elapsed_ms=120_000, actions=130, auto_completed=False)
    assert codes(skilful, ONE_SOLO_WIN) == ["first_win", "no_undo", "quick", "lean",
                                            "on_my_own"]
    assert codes(replace(skilful, rescues=1), ONE_SOLO_WIN) == ["first_win"]
    assert codes(replace(skilful, hints=1), ONE_SOLO_WIN) == ["first_win"]
    assert codes(replace(skilful, assists=AssistCounts(undo_to_winnable=1)),
                 ONE_SOLO_WIN) == ["first_win"]
    # A rescue that found no way out played nothing (rescues = 0) but was asked: logged.
    assert codes(replace(skilful, assists=AssistCounts(rescues=1)), ONE_SOLO_WIN) == [
        "first_win"]
    finished = replace(skilful, auto_completed=True)
    assert codes(finished, ONE_SOLO_WIN) == ["first_win", "no_undo", "quick", "lean"]


def test_an_assisted_win_still_earns_the_milestone_badges() -> None:
    helped = solo(suits=4, solvable_only=False, hints=40, rescues=2)
    assert codes(helped, ONE_SOLO_WIN) == ["first_win", "four_suits", "wild_deal"]


def test_solo_badges_are_not_earned_by_duels_nor_duel_badges_by_solo_games() -> None:
    quick_duel = duel(undos=0, elapsed_ms=1_000, actions=100, suits=4)
    assert codes(quick_duel, ONE_DUEL_WIN) == ["first_duel"]
    assert "first_duel" not in codes(solo(), ONE_SOLO_WIN)


def test_a_daily_win_counts_as_a_win_and_for_two_suits() -> None:
    assert codes(daily(), ONE_DAILY) == ["first_win", "two_suits"]


def test_badges_held_are_not_awarded_again_and_unknown_codes_are_ignored() -> None:
    settled = solo(suits=2, undos=0)
    assert codes(settled, ONE_SOLO_WIN) == ["first_win", "two_suits", "no_undo"]
    held = frozenset({"first_win", "no_undo", "retired_badge"})
    assert codes(settled, ONE_SOLO_WIN, held) == ["two_suits"]


def test_an_award_names_the_badge_and_the_moment_it_was_earned() -> None:
    (award,) = badges_earned(settled=solo(), history=ONE_SOLO_WIN, already=frozenset())
    assert (award.code, award.title, award.earned_at) == ("first_win", "First win", ENDED)
    assert award.description == BADGES[0].description


def test_totals_that_leave_out_the_settled_game_are_refused() -> None:
    with pytest.raises(BadgeInputError, match="include the settled solo game"):
        badges_earned(settled=solo(), history=PlayerRecord(), already=frozenset())
    with pytest.raises(BadgeInputError, match="include the settled daily game"):
        badges_earned(settled=daily(won=False), history=PlayerRecord(), already=frozenset())
    with pytest.raises(BadgeInputError, match="include the settled duel game"):
        badges_earned(settled=duel(), history=ONE_SOLO_WIN, already=frozenset())


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: solo(kind="klondike"), "kind"),
        (lambda: solo(suits=3), "suits"),
        (lambda: solo(actions=-1), "actions"),
        (lambda: solo(ended_at=datetime(2025, 3, 10)), "time zone"),
        (lambda: solo(own_score=3, opponent_score=1), "duels"),
        (lambda: duel(own_score=None), "duels"),
        (lambda: solo(behind_at_opponent_finish=True), "duel's fact"),
        (lambda: solo(daily_date=date(2025, 3, 10)), "daily"),
        (lambda: solo(kind="daily"), "daily"),
        (lambda: PlayerRecord(daily_wins=2, daily_played=1), "more daily wins"),
        (lambda: PlayerRecord(duel_wins=-1), "duel_wins"),
    ],
)
def test_impossible_facts_are_refused(make: Any, match: str) -> None:
    with pytest.raises(BadgeInputError, match=match):
        make()


def test_badges_from_a_real_game_won_by_its_solver_line() -> None:
    start = solo_start(1, SoloOptions(1))
    line = solvable_deal(1, 1).solution
    final = replay(start.state, line)
    assert final.won and final.actions <= 150
    settled = SettledFacts(kind="solo", suits=1, won=final.won, ended_at=ENDED,
                           elapsed_ms=240_000, actions=final.actions, undos=0)
    assert codes(settled, ONE_SOLO_WIN) == ["first_win", "no_undo", "quick", "lean", "on_my_own"]


def test_the_table_in_the_docs_is_the_table_in_the_code() -> None:
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \|", DOC.read_text(), re.M)
    assert [(code, title.strip(), text.strip()) for code, title, text in rows] == [
        (badge.code, badge.title, badge.description) for badge in BADGES
    ]
