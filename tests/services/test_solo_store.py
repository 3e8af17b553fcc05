"""Solo and daily scoring goes through ``ScoredGame`` (app/scoring/play.py), as duels,
results, badges and replays do: the same scores as the formula it replaced, kept here as
the oracle, at every step of random legal games on random deals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.db.solo_models import SoloGame
from app.engine.deal import deal
from app.engine.game import apply, legal_actions
from app.engine.layout import state_from_layout
from app.engine.rules import preset
from app.engine.state import GameState
from app.rewards.solo import SoloOptions
from app.scoring.play import ScoredGame
from app.services.solo_store import score_of, start_state
from tests.support.duel_layouts import near_finished_layout


def old_solo_score(state: GameState) -> int:
    """What solo play scored with before (``windows_points``, written out)."""
    return max(0, 500 - state.actions + 100 * len(state.removed))


OPTIONS = st.builds(SoloOptions, st.sampled_from([1, 2, 4]), st.booleans(), st.booleans())


def walk(start: GameState, picks: list[int]) -> None:
    """Play ``picks`` (indexes into the legal actions, modulo) and check every step: the
    new path, the old formula and the scored fold from the start agree."""
    state, folded = start, ScoredGame.start(start)
    assert score_of(state) == old_solo_score(state) == folded.points
    for pick in picks:
        actions = legal_actions(state)
        if not actions:
            break
        action = actions[pick % len(actions)]
        state, _ = apply(state, action)
        folded, _ = folded.play(action)
        assert folded.state == state
        assert score_of(state) == old_solo_score(state) == folded.points
        assert ScoredGame.at(state).score == folded.score


@settings(max_examples=60, deadline=None)
@given(OPTIONS, st.integers(1, 2**31 - 1), st.lists(st.integers(0, 10**6), max_size=80))
def test_solo_scores_through_scored_game_as_the_old_formula(
        options: SoloOptions, number: int, picks: list[int]) -> None:
    start = deal(number, options.rules())
    assert start.rules.scoring == "windows"  # the solo scheme, from the solo presets
    walk(start, picks)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["classic", "relaxed"]), st.lists(st.integers(0, 10**6), max_size=60))
def test_completed_runs_score_the_same_too(name: str, picks: list[int]) -> None:
    # Six runs removed already, a seventh and the win within reach: the run term counts.
    walk(state_from_layout(preset(name, 1), near_finished_layout()), picks)


def test_a_duel_position_cannot_be_scored_without_its_history() -> None:
    start = deal(5, preset("duel", 1))
    assert ScoredGame.at(start).points == 0  # the start: nothing earned yet
    later, _ = apply(start, legal_actions(start)[0])
    with pytest.raises(ValueError, match="history"):
        ScoredGame.at(later)


@settings(max_examples=40, deadline=None)
@given(OPTIONS, st.integers(1, 2**31 - 1))
def test_a_solo_game_starts_from_its_deal_as_before(options: SoloOptions, number: int
                                                   ) -> None:
    # Rebuilt through deal_forms.start_state, as duels' stored deals are; before, with
    # the generator directly (the oracle).
    game = SoloGame(suits=options.suits, solvable_only=options.solvable_only,
                    relaxed=options.relaxed, source_deal=number)
    assert start_state(game) == deal(number, options.rules())
