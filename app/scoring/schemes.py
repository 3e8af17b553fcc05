"""The three scoring schemes of the rule book, as immutable score values.

``duel`` needs the game's history (once-per-card marks, what each move earned so undo
can take it back); ``windows`` and ``aisleriot`` are functions of the position.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.engine.cards import FACE
from app.engine.events import (
    ActionUndone,
    CardFlipped,
    CardsMoved,
    Event,
    GameWon,
    RunCompleted,
)
from app.engine.state import GameState
from app.engine.values import Value

ACTION_COST = 1
FLIP_POINTS = 2
IN_SUIT_POINTS = 2
RUN_POINTS = 50
WIN_POINTS = 100
WINDOWS_START = 500
WINDOWS_RUN_POINTS = 100
AISLERIOT_RUN_POINTS = 12
_NONE_MARKED: frozenset[int] = frozenset()  # most actions mark nothing: share one value

class Earned(Value):
    """What one undoable action earned, stacked so undo can take back exactly that.

    ``marked`` holds the ids of the cards it marked (a tuple: the collector tracks every
    frozenset, never a tuple of ints); ``below`` is what the actions before it earned,
    as a tuple of that one value or empty (see app/engine/values.py for why a tuple).
    """

    points: int
    marked: tuple[int, ...]
    below: tuple[Earned, ...] = ()


class Score(Value):
    scheme: str
    points: int
    marked: frozenset[int] = _NONE_MARKED
    earned: Earned | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        if (self.scheme, self.points, self.marked) != (other.scheme, other.points, other.marked):
            return False
        # in a loop: the stack may be long
        left: tuple[Earned, ...] = (self.earned,) if self.earned is not None else ()
        right: tuple[Earned, ...] = (other.earned,) if other.earned is not None else ()
        while left and right:
            if left[0] is right[0]:
                return True
            if (left[0].points, left[0].marked) != (right[0].points, right[0].marked):
                return False
            left, right = left[0].below, right[0].below
        return left == right

    def __hash__(self) -> int:
        return hash((self.scheme, self.points, self.marked))


def _duel_gain(events: Iterable[Event], marked: frozenset[int]) -> tuple[int, tuple[int, ...]]:
    gain = 0
    newly: list[int] = []
    for event in events:
        if isinstance(event, CardsMoved):
            onto = event.onto
            cards = event.cards
            if onto is not None and (cards[0] & FACE) + 1 == (onto & FACE):
                for card in cards:
                    card_id = card >> 6
                    if card_id not in marked and card_id not in newly:
                        newly.append(card_id)
                        gain += IN_SUIT_POINTS
        elif isinstance(event, CardFlipped):
            gain += FLIP_POINTS
        elif isinstance(event, RunCompleted):
            gain += RUN_POINTS
        elif isinstance(event, GameWon):
            gain += WIN_POINTS
    return gain, tuple(newly)


def _next_duel(score: Score, after: GameState, events: tuple[Event, ...]) -> Score:
    if events and isinstance(events[0], ActionUndone):
        top = score.earned
        if top is None:  # the engine refuses such an undo; nothing to take back
            return Score("duel", score.points - ACTION_COST, score.marked, None)
        return Score(
            "duel",
            score.points - top.points - ACTION_COST,
            score.marked.difference(top.marked) if top.marked else score.marked,
            top.below[0] if top.below else None,
        )
    gain, newly = _duel_gain(events, score.marked)
    # Once the engine's undo stack is cut (a final action), nothing below can come back:
    # drop what it earned too, so a game keeps only the stack undo can still reach.
    earned = None
    if after.history:
        earned = Earned(gain, newly, (score.earned,) if score.earned is not None else ())
    return Score(
        "duel",
        score.points + gain - ACTION_COST,
        score.marked.union(newly) if newly else score.marked,
        earned,
    )


def windows_points(state: GameState) -> int:
    return max(0, WINDOWS_START - state.actions + WINDOWS_RUN_POINTS * len(state.removed))


def aisleriot_points(state: GameState) -> int:
    points = AISLERIOT_RUN_POINTS * len(state.removed)
    for column in state.columns:
        up = column.up
        for lower, upper in zip(up[1:], up, strict=False):
            if (lower & FACE) + 1 == (upper & FACE):
                points += 1
    return points


def start_score(scheme: str, state: GameState) -> Score:
    if scheme == "duel":
        return Score("duel", 0)
    return Score(scheme, _position_points(scheme, state))


def _position_points(scheme: str, state: GameState) -> int:
    if scheme == "windows":
        return windows_points(state)
    if scheme == "aisleriot":
        return aisleriot_points(state)
    raise ValueError(f"unknown scoring scheme {scheme!r}")


def next_score(score: Score, after: GameState, events: tuple[Event, ...]) -> Score:
    """The score once a legal action has produced ``after`` and ``events``."""
    if score.scheme == "duel":
        return _next_duel(score, after, events)
    return Score(score.scheme, _position_points(score.scheme, after))
