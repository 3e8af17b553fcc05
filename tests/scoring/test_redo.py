"""Redo in solo games is the undone action played again as an ordinary move (web/js/redo.js,
docs/solo-and-daily.md "Redo"): no cycle of undo and redo may raise the score — neither
the score shown in play (any scheme) nor a win's points (each undo and redo is an
action, and fewer actions never pay less)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.actions import Undo
from app.engine.deal import deal
from app.engine.game import legal_actions
from app.engine.rules import preset
from app.rewards.points import win_points
from app.rewards.solo import SoloOptions
from app.scoring.play import ScoredGame


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(["classic", "relaxed", "duel"]),
    suits=st.sampled_from([1, 2, 4]),
    number=st.integers(1, 999_999),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=25),
    cycles=st.integers(1, 4),
)
def test_undo_and_redo_never_raise_the_score(name: str, suits: int, number: int,
                                             picks: list[int], cycles: int) -> None:
    game = ScoredGame.start(deal(number, preset(name, suits)))
    for pick in picks:
        moves = [a for a in legal_actions(game.state) if not isinstance(a, Undo)]
        if not moves or game.state.won:
            break
        action = moves[pick % len(moves)]
        played, _ = game.play(action)
        again = played
        for _ in range(cycles):
            if Undo() not in legal_actions(again.state):
                break  # an action undo cannot reach (a duel's deal): nothing to redo
            undone, _ = again.play(Undo())
            again, _ = undone.play(action)  # the redo: the same action, sent again
            assert again.state.columns == played.state.columns  # the same position
            assert again.points <= played.points
        game = played


@given(actions=st.integers(0, 2_000), cycles=st.integers(1, 50),
       suits=st.sampled_from([1, 2, 4]), elapsed_ms=st.integers(0, 4 * 3_600_000))
def test_a_wins_points_never_grow_with_undo_and_redo(actions: int, cycles: int, suits: int,
                                                     elapsed_ms: int) -> None:
    options = SoloOptions(suits=suits)
    plain = win_points(options=options, elapsed_ms=elapsed_ms, actions=actions)
    cycled = win_points(options=options, elapsed_ms=elapsed_ms, actions=actions + 2 * cycles)
    assert cycled <= plain
