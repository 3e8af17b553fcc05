"""Properties of the engine over random games (hypothesis)."""

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.actions import Action, Deal, Flip, Move, Undo, action_from_json, parse_action
from app.engine.cards import FACE, RUN_LENGTH, deck_faces, make_card
from app.engine.errors import IllegalAction
from app.engine.events import CardFlipped, RunCompleted
from app.engine.game import apply, check, is_legal, legal_actions
from app.engine.layout import state_from_layout, state_to_layout
from app.engine.record import Record, load_record
from app.engine.state import GameState
from tests.engine.strategies_engine import ANY_ACTION, broad_actions, start_states

BROAD = broad_actions()
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def conserved(state: GameState) -> None:
    faces = Counter(card & FACE for card in state.all_cards())
    for suit in state.removed:
        for rank in range(1, RUN_LENGTH + 1):
            faces[make_card(rank, suit)] += 1
    assert faces == Counter(deck_faces(state.rules.suits))
    assert len(state.all_cards()) == 104 - RUN_LENGTH * len(state.removed)
    ids = [card >> 6 for card in state.all_cards()]
    assert len(set(ids)) == len(ids)


def is_final(action: Action, events: tuple[object, ...]) -> bool:
    return isinstance(action, (Deal, Flip)) or any(
        isinstance(event, (CardFlipped, RunCompleted)) for event in events
    )


def lands_in_suit(state: GameState, move: Move) -> bool:
    target = state.columns[move.dst].up
    return bool(target) and (state.columns[move.src].up[-move.count] & FACE) + 1 == (
        target[-1] & FACE
    )


def play(data: st.DataObject, state: GameState, steps: int) -> list[Action]:
    """Random play: mostly legal actions, some arbitrary ones; checks every step."""
    undo_model: list[GameState] = []  # positions an undo must restore, newest last
    played: list[Action] = []
    for _ in range(steps):
        legal = legal_actions(state)
        in_suit = [a for a in legal if isinstance(a, Move) and lands_in_suit(state, a)]
        if in_suit and data.draw(st.booleans()):  # steer towards completed runs
            action = data.draw(st.sampled_from(in_suit))
        elif legal and data.draw(st.integers(0, 4)) > 0:
            action = data.draw(st.sampled_from(legal))
        else:
            action = data.draw(ANY_ACTION)
        try:
            after, events = apply(state, action)
        except IllegalAction:
            assert action not in legal
            continue
        assert action in legal
        played.append(action)
        assert after.actions == state.actions + 1
        if isinstance(action, Undo):
            assert undo_model, "undo applied with nothing to undo"
            assert after.position == undo_model.pop().position
        elif state.rules.undo == "all" or not is_final(action, events):
            undo_model.append(state)
        else:
            undo_model.clear()
        assert (Undo() in legal_actions(after)) == bool(undo_model)
        conserved(after)
        state = after
    return played


@SETTINGS
@given(st.data(), start_states())
def test_random_play_conserves_cards_and_undo_restores(data: st.DataObject,
                                                        start: GameState) -> None:
    conserved(start)
    play(data, start, 60)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), start_states())
def test_legal_actions_is_exactly_the_legal_set(data: st.DataObject, start: GameState) -> None:
    state = start
    for _ in range(15):
        legal = legal_actions(state)
        assert len(set(legal)) == len(legal)
        moves = [(a.src, a.count, a.dst) for a in legal if isinstance(a, Move)]
        assert moves == sorted(moves)  # by source, then count, then target
        for action in legal:
            apply(state, action)  # never raises
        legal_set = set(legal)
        for action in BROAD:
            assert is_legal(state, action) == (action in legal_set), action
        if not legal:
            break
        state = apply(state, data.draw(st.sampled_from(legal)))[0]


@SETTINGS
@given(st.data(), start_states())
def test_illegal_actions_change_nothing(data: st.DataObject, start: GameState) -> None:
    state = start
    for _ in range(20):
        action = data.draw(ANY_ACTION)
        try:
            check(state, action)
        except IllegalAction as error:
            assert error.code and error.message
            continue
        state = apply(state, action)[0]


@SETTINGS
@given(st.data(), start_states())
def test_forms_round_trip(data: st.DataObject, start: GameState) -> None:
    played = play(data, start, 30)
    for action in played:
        assert parse_action(action.text()) == action
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
    record = Record(start.rules, start, tuple(played))
    text = json.dumps(record.to_json(with_layout=True))
    again = load_record(text)
    assert again.actions == record.actions
    assert again.rules == record.rules
    assert state_to_layout(again.start) == state_to_layout(start)
    assert again.start.position == start.position  # ids follow the layout order both times
    layout = state_to_layout(start)
    assert state_to_layout(state_from_layout(start.rules, layout)) == layout
