"""Hints (player's knowledge only), rescue and finish (full knowledge)."""

import random

import pytest

from app.engine.actions import Deal, Flip, Move, Undo
from app.engine.deal import deal
from app.engine.game import is_legal, legal_actions, push, replay
from app.engine.layout import sketch_state
from app.engine.rules import preset
from app.engine.solver import NotFinishable, can_finish, finish, hint, rescue, solve
from app.engine.state import Column, GameState
from tests.engine.solver_positions import (
    ONE_SUIT,
    SEVEN_GONE,
    dead_position,
    one_move_from_winning,
    run,
)


def positions_along_a_random_game(state: GameState, steps: int, seed: int) -> list[GameState]:
    chooser = random.Random(seed)
    seen = [state]
    for _ in range(steps):
        actions = [a for a in legal_actions(state) if not isinstance(a, Undo)]
        if not actions:
            break
        state = push(state, chooser.choice(actions))
        seen.append(state)
    return seen


@pytest.mark.parametrize("name,suits", [("classic", 2), ("duel", 2), ("relaxed", 4)])
def test_a_hint_is_never_illegal(name: str, suits: int) -> None:
    for state in positions_along_a_random_game(deal(11, preset(name, suits)), 60, seed=suits):
        advice = hint(state)
        assert advice.reason
        if advice.action is not None:
            assert is_legal(state, advice.action), (advice, state.actions)


def test_a_hint_does_not_depend_on_face_down_cards() -> None:
    start = deal(4, preset("classic", 2))
    swapped = list(start.columns)
    # the bottom four hidden cards of columns 0 and 5 change places; the stock is reversed
    a, b = start.columns[0], start.columns[5]
    swapped[0] = Column(b.down[:4] + a.down[4:], a.up)
    swapped[5] = Column(a.down[:4], b.up)
    other = GameState(start.rules, tuple(swapped), tuple(reversed(start.stock)), start.removed)
    assert hint(other) == hint(start)


def test_a_hint_names_its_reason() -> None:
    state = sketch_state(ONE_SUIT, ["Ks / 9s", "Ts", "Qs"])
    advice = hint(state)
    assert advice.action == Move(0, 1, 1)
    assert advice.reason == "uncovers a card"
    joined = sketch_state(preset("classic", 2), ["Qd 9s", "Th", "Ts"])
    assert hint(joined) == type(hint(joined))(Move(0, 2, 1), "joins ♠ run")
    completes = sketch_state(ONE_SUIT, [run(13, 2), "As"], removed=SEVEN_GONE)
    assert hint(completes).reason == "completes a ♠ run"


def test_a_hint_deals_when_no_move_helps_and_flips_under_duel_rules() -> None:
    stuck = sketch_state(ONE_SUIT, ["Ks"] * 10, stock=" ".join(["Qs"] * 10))
    assert hint(stuck).action == Deal()
    duel = sketch_state(preset("duel", 1), ["Ks 5s /", "Ks"])
    assert hint(duel).action == Flip(0)


def test_rescue_says_no_way_out_on_a_dead_position() -> None:
    answer = rescue(dead_position(), nodes=5_000)
    assert answer.status == "no_way_out"
    assert answer.message == "no way out — undo a few moves"
    assert answer.actions == ()


def test_rescue_gives_the_next_actions_of_a_verified_win() -> None:
    start = deal(6, preset("classic", 2))
    middle = replay(start, solve(start).actions[:50])
    answer = rescue(middle, shown=5)
    assert answer.status == "way_out"
    assert len(answer.actions) == 5
    assert answer.remaining >= 5
    replay(middle, answer.actions)  # raises if any is illegal


def test_finish_plays_out_a_game_with_every_card_visible() -> None:
    state = one_move_from_winning()
    assert can_finish(state)
    done = finish(state)
    assert done.solved
    assert replay(state, done.actions).won


def test_finish_refuses_while_cards_are_hidden() -> None:
    state = sketch_state(ONE_SUIT, [f"2s / {run(13, 3)}", "As", ""], removed=SEVEN_GONE)
    assert not can_finish(state)
    with pytest.raises(NotFinishable):
        finish(state)


def test_finish_confirms_a_lost_visible_position_is_lost() -> None:
    lost = sketch_state(ONE_SUIT, ["Qs", "Qs", "Js"], removed="s s s s s s s")
    assert can_finish(lost)
    assert finish(lost, nodes=1_000).status == "unsolvable"


def test_under_classic_rules_a_hint_fills_an_empty_column_before_a_deal() -> None:
    columns = ["Qh 5s", "Kd", "", *["Kd"] * 7]
    state = sketch_state(preset("classic", 4), columns, stock=" ".join(["Qc"] * 10))
    advice = hint(state)
    assert isinstance(advice.action, Move)
    assert advice.action.dst == 2
    after = push(state, advice.action)
    assert hint(after).action == Deal()


@pytest.mark.parametrize("suits,number", [(1, 1), (1, 2), (2, 2), (4, 1)])
def test_following_the_hints_never_comes_back_to_a_position(suits: int, number: int) -> None:
    state = deal(number, preset("classic", suits))
    seen = {state.position}
    for _ in range(300):
        advice = hint(state)
        if advice.action is None or isinstance(advice.action, Undo):
            break
        state = push(state, advice.action)
        assert state.position not in seen, advice
        seen.add(state.position)
    assert state.won or hint(state).action in (None, Undo())


def _late_position(number: int, suits: int) -> GameState:
    """Deal ``number`` played along the solver's line until every card is visible."""
    state = deal(number, preset("classic", suits))
    for action in solve(state).actions:
        if can_finish(state):
            break
        state = push(state, action)
    assert can_finish(state) and not state.won
    return state


def test_when_nothing_is_hidden_the_hint_is_the_first_action_of_the_short_line() -> None:
    from app.engine.solver.advice import OPEN_HINT_NODES, OPEN_HINT_POLISH

    state = _late_position(2, 1)
    line = solve(state, nodes=OPEN_HINT_NODES, polish_nodes=OPEN_HINT_POLISH)
    assert line.solved and line.polish_nodes > 0
    assert hint(state).action == line.actions[0]


def test_rescue_and_finish_play_the_shortened_line() -> None:
    from app.engine.solver.advice import POLISH_NODES

    start = deal(3, preset("classic", 1))
    short = solve(start, polish_nodes=POLISH_NODES)
    assert len(short.actions) < len(solve(start).actions)
    way_out = rescue(start)
    assert way_out.remaining == len(short.actions)
    assert way_out.actions == short.actions[:5]
    late = _late_position(2, 1)
    finished = finish(late)
    assert finished.actions == solve(late, polish_nodes=POLISH_NODES).actions
    assert replay(late, finished.actions).won
