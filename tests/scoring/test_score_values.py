"""Scores as values: the duel's undo stack mirrors the engine's, untracked, compared in a loop."""

import gc

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.actions import Move
from app.engine.errors import IllegalAction
from app.engine.game import legal_actions
from app.engine.layout import sketch_state
from app.engine.rules import preset, with_options
from app.engine.state import GameState
from app.scoring.play import ScoredGame
from app.scoring.schemes import Earned, Score
from tests.engine.strategies_engine import ANY_ACTION, start_states
from tests.scoring.test_duel_properties import duel_start


def depth(state: GameState) -> int:
    count = 0
    while (earlier := state.previous) is not None:
        count, state = count + 1, earlier
    return count


def stacked(score: Score) -> int:
    count, earned = 0, score.earned
    while earned is not None:
        count += 1
        earned = earned.below[0] if earned.below else None
    return count


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), start_states(), st.sampled_from(["all", "moves"]))
def test_the_duel_keeps_what_each_action_earned_exactly_as_long_as_undo_can_reach_it(
    data: st.DataObject, start: GameState, undo: str
) -> None:
    rules = with_options(start.rules, undo=undo)
    game = ScoredGame.start(duel_start(GameState(rules, start.columns, start.stock,
                                                 start.removed)))
    for _ in range(80):
        legal = legal_actions(game.state)
        action = data.draw(st.sampled_from(legal) if legal and data.draw(st.booleans())
                           else ANY_ACTION)
        try:
            game = game.play(action)[0]
        except IllegalAction:
            continue
        assert stacked(game.score) == depth(game.state)
        assert not gc.is_tracked(game) and not gc.is_tracked(game.score)
        if game.score.earned is not None:
            assert not gc.is_tracked(game.score.earned)


def test_long_scores_compare_and_hash_without_recursion() -> None:
    start = sketch_state(preset("classic", 1), ["9s 8s", "Ts", "Js"])
    start = GameState(with_options(start.rules, scoring="duel"), start.columns, start.stock,
                      start.removed)
    actions = [Move(0, 3, 1), Move(3, 0, 1)] * 3000

    def played(moves: list[Move]) -> ScoredGame:
        game = ScoredGame.start(start)
        for move in moves:
            game = game.play(move)[0]
        return game

    one, two = played(actions), played(actions)
    assert stacked(one.score) == 6000
    assert one.score == two.score and hash(one.score) == hash(two.score)
    assert one == two



def test_scores_differ_by_anything_their_undo_stacks_hold() -> None:
    def score(bottom_points: int) -> Score:
        earned = Earned(bottom_points, (), ())
        for _ in range(100_000):  # far deeper than the interpreter's recursion limit
            earned = Earned(0, (), (earned,))
        return Score("duel", 10, frozenset({7}), Earned(2, (7,), (earned,)))

    assert score(0) == score(0) and hash(score(0)) == hash(score(0))
    assert score(0) != score(1)  # the same points and marks; the bottom entry differs
