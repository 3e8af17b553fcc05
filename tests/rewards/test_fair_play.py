"""The fair-play rule (app/rewards/fair_play.py, docs/points.md "Fair play")."""

import pytest

from app.rewards.fair_play import AssistCounts, AssistKindError, assisting, fair_play


def test_a_hint_a_rescue_or_undo_to_winnable_makes_a_game_assisted() -> None:
    for counts in (AssistCounts(hints=1), AssistCounts(rescues=1),
                   AssistCounts(undo_to_winnable=1)):
        verdict = fair_play(counts)
        assert verdict.assisted and not verdict.ranked and not verdict.skill_badges
        assert not verdict.streak_grows and not verdict.on_my_own


def test_the_auto_complete_alone_keeps_the_boards_and_costs_on_my_own_only() -> None:
    verdict = fair_play(AssistCounts(auto_complete=1))
    assert not verdict.assisted and verdict.ranked and verdict.skill_badges
    assert verdict.streak_grows and not verdict.on_my_own
    assert fair_play(AssistCounts()).on_my_own


def test_counts_from_kinds_and_unknown_kinds_refused() -> None:
    counts = AssistCounts.of(["hint", "hint", "rescue", "auto_complete"])
    assert counts.to_json() == {"hints": 2, "rescues": 1, "undo_to_winnable": 0,
                                "auto_complete": 1}
    assert assisting("undo_to_winnable") and not assisting("auto_complete")
    with pytest.raises(AssistKindError):
        AssistCounts.of(["peek"])
