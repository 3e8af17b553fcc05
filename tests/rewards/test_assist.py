"""Rescue and auto-complete: on small known positions and along real solvable games."""

import pytest

from app.engine.actions import Action, Deal
from app.engine.game import is_legal, push, replay
from app.engine.layout import sketch_state
from app.engine.solver.solvable import solvable_deal
from app.engine.state import GameState
from app.rewards.assist import (
    RESCUE_ACTIONS,
    AssistanceError,
    auto_complete,
    auto_complete_available,
    rescue_actions,
)
from app.rewards.solo import SoloOptions, solo_start
from tests.engine.solver_positions import ONE_SUIT, dead_position, one_move_from_winning


def solvable_game(number: int, suits: int) -> tuple[GameState, tuple[Action, ...]]:
    start = solo_start(number, SoloOptions(suits))
    return start.state, solvable_deal(number, suits).solution


def play_until_auto_complete(state: GameState, line: tuple[Action, ...]) -> tuple[GameState, int]:
    played = 0
    while not auto_complete_available(state):
        state = push(state, line[played])
        played += 1
    return state, played


@pytest.mark.parametrize("number,suits", [(1, 1), (2, 2)])
def test_a_rescue_plays_the_next_five_actions_of_a_win(number: int, suits: int) -> None:
    state, line = solvable_game(number, suits)
    state = replay(state, line[:10])
    found = rescue_actions(state)
    assert found.status == "way_out"
    assert len(found.actions) == RESCUE_ACTIONS < found.remaining
    for action in found.actions:
        assert is_legal(state, action)
        state = push(state, action)
    assert rescue_actions(state).status == "way_out"  # still winnable after them


def test_a_rescue_shows_fewer_actions_when_the_win_is_that_close() -> None:
    found = rescue_actions(one_move_from_winning(), n=5)
    assert found.status == "way_out" and len(found.actions) == found.remaining == 1
    assert push(one_move_from_winning(), found.actions[0]).won


def test_a_rescue_can_show_any_number_of_actions() -> None:
    state, _ = solvable_game(1, 1)
    assert len(rescue_actions(state, n=2).actions) == 2


def test_no_way_out_advises_undoing() -> None:
    found = rescue_actions(dead_position())
    assert (found.status, found.actions) == ("no_way_out", ())
    assert "undo" in found.message


def test_a_rescue_is_refused_on_a_won_game_or_for_no_actions() -> None:
    won = push(one_move_from_winning(), rescue_actions(one_move_from_winning()).actions[0])
    with pytest.raises(AssistanceError, match="won"):
        rescue_actions(won)
    for n in (0, -1, True, 2.0):
        with pytest.raises(AssistanceError, match="whole number"):
            rescue_actions(one_move_from_winning(), n=n)


@pytest.mark.parametrize("number,suits", [(1, 1), (3, 2), (2, 4)])
def test_auto_complete_becomes_available_and_finishes_a_real_game(number: int,
                                                                  suits: int) -> None:
    state, line = solvable_game(number, suits)
    assert auto_complete(state).status == "not_available"
    state, played = play_until_auto_complete(state, line)
    assert not state.stock and all(not column.down for column in state.columns)
    answer = auto_complete(state)
    assert answer.ready and answer.actions
    assert replay(state, answer.actions).won
    assert played < len(line)


@pytest.mark.parametrize("number,suits", [(1, 1), (3, 2), (2, 4)])
def test_the_offer_s_unpolished_line_wins_too_and_the_polish_never_lengthens_it(
        number: int, suits: int) -> None:
    # Whether to offer the button is asked after every action of a game's end: the first
    # verified win will do there; the polished line, played when the button is pressed,
    # is never longer.
    state, _ = play_until_auto_complete(*solvable_game(number, suits))
    first = auto_complete(state, polish=False)
    polished = auto_complete(state)
    assert first.ready and replay(state, first.actions).won
    assert polished.ready and len(polished.actions) <= len(first.actions)


def test_auto_complete_is_not_available_while_the_stock_holds_cards() -> None:
    state, line = solvable_game(1, 1)
    before_last_deal = [i for i, action in enumerate(line) if action == Deal()][-1]
    state = replay(state, line[:before_last_deal])
    assert state.stock and not auto_complete_available(state)
    assert auto_complete(state).status == "not_available"


def test_auto_complete_says_unsolvable_when_every_card_shows_and_none_can_move() -> None:
    answer = auto_complete(_all_face_up_dead_end())
    assert (answer.status, answer.actions) == ("unsolvable", ())


def test_auto_complete_is_not_available_on_a_won_game() -> None:
    state = one_move_from_winning()
    won = push(state, auto_complete(state).actions[0])
    assert won.won and auto_complete(won).status == "not_available"


def _all_face_up_dead_end() -> GameState:
    """Every card face up, no stock, no move: the rest cannot be won."""
    tops = ["As", "As", "3s", "3s", "5s", "5s", "7s", "7s", "9s", "9s"]
    return sketch_state(ONE_SUIT, tops)
