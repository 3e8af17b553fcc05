"""From the search's steps back to engine actions, replayed through the real engine.

A line the search believes in counts for nothing until :func:`verified_actions` has
played it through :mod:`app.engine.game`: any disagreement between the fast board and
the rules raises :class:`SolutionRejected` instead of reaching a player.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.engine.actions import Action, Deal, Flip, Move
from app.engine.errors import IllegalAction
from app.engine.game import push
from app.engine.solver.board import Step
from app.engine.state import GameState


class SolutionRejected(RuntimeError):
    """The engine refused a line the solver produced: a solver bug, never shown as a hint."""


def _flips(state: GameState) -> list[Flip]:
    """Under manual flips, the flips the search took for granted (face-down tops)."""
    if not state.rules.manual_flip:
        return []
    return [
        Flip(index)
        for index, column in enumerate(state.columns)
        if column.down and not column.up
    ]


def to_actions(start: GameState, steps: Iterable[Step]) -> tuple[list[Action], GameState]:
    """Engine actions for ``steps`` from ``start`` and the position they lead to.

    Raises :class:`SolutionRejected` if the engine refuses any of them.
    """
    state = start
    actions: list[Action] = []

    def play(action: Action) -> None:
        nonlocal state
        try:
            state = push(state, action)
        except IllegalAction as error:
            raise SolutionRejected(
                f"the engine refused {action.text()} after {len(actions)} actions: {error}"
            ) from None
        actions.append(action)

    for flip in _flips(state):
        play(flip)
    for src, dst, count in steps:
        play(Deal() if src < 0 else Move(src, dst, count))
        for flip in _flips(state):
            play(flip)
    return actions, state


def verified_actions(start: GameState, steps: Iterable[Step], *, must_win: bool) -> list[Action]:
    actions, end = to_actions(start, steps)
    if must_win and not end.won:
        raise SolutionRejected(f"the line ends with {len(end.removed)} runs removed, not a win")
    return actions
