"""The duel scheme's anti-farming property, over any action sequence (hypothesis)."""

from dataclasses import dataclass, replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.actions import Move, Undo
from app.engine.cards import FACE
from app.engine.errors import IllegalAction
from app.engine.events import CardFlipped, CardsMoved, GameWon, RunCompleted
from app.engine.game import legal_actions
from app.engine.layout import build_state, sketch_state
from app.engine.rules import preset, with_options
from app.engine.state import GameState
from app.scoring.play import ScoredGame
from tests.engine.strategies_engine import ANY_ACTION, start_states


@dataclass(frozen=True)
class Tally:
    """What the rule book says a duel score is made of, counted independently."""

    actions: int = 0
    flips: int = 0
    in_suit: frozenset[int] = frozenset()
    runs: int = 0
    won: int = 0

    def points(self) -> int:
        return -self.actions + 2 * self.flips + 2 * len(self.in_suit) + 50 * self.runs + (
            100 * self.won
        )


def duel_start(state: GameState) -> GameState:
    rules = with_options(state.rules, scoring="duel")
    def faces(cards: tuple[int, ...]) -> list[int]:
        return [card & FACE for card in cards]

    piles = [(faces(c.down), faces(c.up)) for c in state.columns]
    return build_state(rules, piles, faces(state.stock), list(state.removed))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), start_states())
def test_duel_in_suit_bonus_is_bounded_and_undo_takes_back_exactly(
    data: st.DataObject, start: GameState
) -> None:
    game = ScoredGame.start(duel_start(start))
    tally = Tally()
    history: list[tuple[ScoredGame, Tally]] = []  # what an undo must bring back
    for _ in range(80):
        legal = legal_actions(game.state)
        in_suit = [a for a in legal if isinstance(a, Move) and _lands_in_suit(game.state, a)]
        back_and_forth = data.draw(st.integers(0, 3))
        if back_and_forth == 0 and in_suit:
            action = data.draw(st.sampled_from(in_suit))
        elif back_and_forth == 1:
            action = data.draw(ANY_ACTION)
        elif legal:
            action = data.draw(st.sampled_from(legal))
        else:
            break
        try:
            after, events = game.play(action)
        except IllegalAction:
            continue
        if isinstance(action, Undo):
            earlier, earlier_tally = history.pop()
            # everything the undone action earned comes back off; its -1 stays paid (as do
            # those of actions undone before it) and the undo costs 1 more
            paid_since = game.state.actions - earlier.state.actions
            assert after.points == earlier.points - paid_since - 1
            assert after.score.marked == earlier.score.marked
            tally = replace(earlier_tally, actions=tally.actions + 1)
        else:
            undoable = after.state.previous is game.state
            if undoable:
                history.append((game, tally))
            else:
                history.clear()
            tally = _count(tally, events)
        assert after.points == tally.points()
        assert after.score.marked == tally.in_suit
        # at most 2 in-suit points per physical card, ever standing
        assert len(after.score.marked) <= 104
        assert after.score.marked <= set(range(104))
        game = after


def _lands_in_suit(state: GameState, move: Move) -> bool:
    target = state.columns[move.dst].up
    return bool(target) and (state.columns[move.src].up[-move.count] & FACE) + 1 == (
        target[-1] & FACE
    )


def _count(tally: Tally, events: tuple[object, ...]) -> Tally:
    actions, flips, marked, runs, won = (
        tally.actions + 1, tally.flips, set(tally.in_suit), tally.runs, tally.won
    )
    for event in events:
        if isinstance(event, CardFlipped):
            flips += 1
        elif isinstance(event, CardsMoved) and event.onto is not None and (
            (event.cards[0] & FACE) + 1 == (event.onto & FACE)
        ):
            marked.update(card >> 6 for card in event.cards)
        elif isinstance(event, RunCompleted):
            runs += 1
        elif isinstance(event, GameWon):
            won += 1
    return Tally(actions, flips, frozenset(marked), runs, won)


def test_moving_a_run_back_and_forth_cannot_farm_points() -> None:
    start = sketch_state(preset("duel", 2), ["9h 8h 7h", "Th", "Th", "Ts"])
    game = ScoredGame.start(start)
    seen = []
    for _ in range(50):
        for src, dst in ((0, 1), (1, 2), (2, 1)):
            if game.state.columns[src].up:
                game = game.play(Move(src, dst, 3))[0]
                seen.append(game.points)
    assert max(seen) == 6 - 1  # the first landing earned the only bonus these cards get
    assert seen[-1] == 6 - len(seen)
