"""The three scoring schemes of the rule book, as immutable score values.

``duel`` needs the game's history (once-per-card marks, what each move earned so undo
can take it back); ``windows`` and ``aisleriot`` are functions of the position.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.engine.cards import FACE, id_of
from app.engine.events import (
    ActionUndone,
    CardFlipped,
    CardsMoved,
    Event,
    GameWon,
    RunCompleted,
)
from app.engine.state import GameState

ACTION_COST = 1
FLIP_POINTS = 2
IN_SUIT_POINTS = 2
RUN_POINTS = 50
WIN_POINTS = 100
WINDOWS_START = 500
WINDOWS_RUN_POINTS = 100
AISLERIOT_RUN_POINTS = 12
_NONE_MARKED: frozenset[int] = frozenset()  # most actions mark nothing: share one value


@dataclass(frozen=True, slots=True)
class Earned:
    """What one undoable action earned, stacked so undo can take back exactly that."""

    points: int
    marked: frozenset[int]
    below: Earned | None


@dataclass(frozen=True, slots=True)
class Score:
    scheme: str
    points: int
    marked: frozenset[int] = frozenset()
    earned: Earned | None = None


def _duel_gain(events: Iterable[Event], marked: frozenset[int]) -> tuple[int, frozenset[int]]:
    gain = 0
    newly: set[int] = set()
    for event in events:
        if isinstance(event, CardFlipped):
            gain += FLIP_POINTS
        elif isinstance(event, CardsMoved):
            onto = event.onto
            if onto is not None and (event.cards[0] & FACE) + 1 == (onto & FACE):
                for card in event.cards:
                    card_id = id_of(card)
                    if card_id not in marked and card_id not in newly:
                        newly.add(card_id)
                        gain += IN_SUIT_POINTS
        elif isinstance(event, RunCompleted):
            gain += RUN_POINTS
        elif isinstance(event, GameWon):
            gain += WIN_POINTS
    return gain, frozenset(newly) if newly else _NONE_MARKED


def _next_duel(score: Score, events: tuple[Event, ...]) -> Score:
    if events and isinstance(events[0], ActionUndone):
        top = score.earned
        if top is None:  # the engine refuses such an undo; nothing to take back
            return Score("duel", score.points - ACTION_COST, score.marked, None)
        return Score(
            "duel",
            score.points - top.points - ACTION_COST,
            score.marked - top.marked,
            top.below,
        )
    gain, newly = _duel_gain(events, score.marked)
    return Score(
        "duel",
        score.points + gain - ACTION_COST,
        score.marked | newly if newly else score.marked,
        Earned(gain, newly, score.earned),
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
        return _next_duel(score, events)
    return Score(score.scheme, _position_points(score.scheme, after))
