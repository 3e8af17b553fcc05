"""Assistance in solo play: rescue and auto-complete, on top of the solver's advice.

- **Hint** is :func:`app.engine.solver.hint` as it is: the player's knowledge only, free.
- **Rescue** (:func:`rescue_actions`): the solver searches from the current position
  *knowing every card* and returns the next few actions of a verified win, which the
  server plays for the player; or says there is no way out ("undo a few moves").
- **Auto-complete** (:func:`auto_complete`): once the stock is empty and every card is
  face up, the solver checks that the rest wins and returns the remaining actions.

Both run on the server only: a rescue's actions are computed from face-down cards
(playing them reveals nothing more than the player would see by playing them, but the
search itself must never run in, or be sent to, the browser). Budgets are in solver
nodes, so the answers are the same on every machine; ``seconds`` adds a wall-clock cap
for interactive use (the answer may then depend on the machine's load).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from app.engine.actions import Action
from app.engine.solver.advice import POLISH_NODES, Rescue, can_finish, finish, rescue
from app.engine.state import GameState

RESCUE_ACTIONS = 5
"""How many actions a rescue plays for the player (CetinsGame's "the next 5 actions")."""
RESCUE_NODES = 200_000
"""Each of a rescue's two searches (find a win, then prove there is none) stops here."""
AUTO_COMPLETE_NODES = 100_000


class AssistanceError(ValueError):
    """Assistance asked for where it has no meaning (a won game, a bad number of actions)."""


def rescue_actions(
    state: GameState,
    n: int = RESCUE_ACTIONS,
    *,
    nodes: int = RESCUE_NODES,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Rescue:
    """Up to ``n`` next actions of a verified win from ``state`` (``way_out``), or the
    verdict ``no_way_out`` (proved lost: undo a few moves) or ``unknown`` (no way out
    found within the budget: undo a few moves). **Full knowledge: server side only.**
    ``seconds`` caps the whole rescue; ``stop`` (a cancel flag, checked now and then)
    ends it early with :class:`Stopped`.

    Fewer than ``n`` actions come back when the win is that close. Only a ``way_out``
    rescue costs points (docs/points.md).
    """
    if type(n) is not int or n < 1:
        raise AssistanceError(f"a rescue plays a whole number of actions from 1 up, not {n!r}")
    if state.won:
        raise AssistanceError("the game is already won: nothing to rescue")
    return rescue(state, nodes=nodes, seconds=seconds, shown=n, progress=stopping_on(stop))


class Stopped(Exception):
    """The player cancelled the search (its ``stop`` flag turned true)."""


def stopping_on(stop: Callable[[], bool] | None) -> Callable[[int, int], None] | None:
    """The solver's progress callback that ends a search with :class:`Stopped` once
    ``stop()`` is true (a rescue's, a guided hint's); none without a flag."""
    if stop is None:
        return None

    def progress(nodes: int, depth: int) -> None:
        if stop():
            raise Stopped

    return progress


AutoCompleteStatus = Literal["ready", "not_available", "unsolvable", "unknown"]


@dataclass(frozen=True, slots=True)
class AutoComplete:
    """Whether auto-complete can finish the game, and the actions it would play.

    ``ready``: ``actions`` win from the position (replay-verified). ``not_available``:
    the stock holds cards, a card is face down, or the game is won. ``unsolvable``: every
    card is visible and the rest provably cannot be won (undo some moves).
    ``unknown``: the budget ran out before either answer (no button).
    """

    status: AutoCompleteStatus
    actions: tuple[Action, ...]
    message: str

    @property
    def ready(self) -> bool:
        return self.status == "ready"


def auto_complete_available(state: GameState) -> bool:
    """The condition for asking the solver at all: a game in play with an empty stock
    and no face-down card. Cheap: check it after every action."""
    return not state.won and can_finish(state)


def auto_complete(
    state: GameState, *, nodes: int = AUTO_COMPLETE_NODES, seconds: float | None = None,
    polish: bool = True,
) -> AutoComplete:
    """The remaining actions when the game can be finished for the player.

    Uses no hidden knowledge (none is left once it is available), but it is the
    server's answer: the client shows the button when it is ``ready``.

    ``polish=False``: the first verified win, not the shortest line found. Whether to
    offer the button is asked after every action of a game's end, and the polish is
    most of the cost (a 1-suit end: 100-500 ms with it, 1-4 ms without); the line the
    button plays is polished when it is pressed (a shorter line: fewer actions count
    against the solo points' economy).
    """
    if not auto_complete_available(state):
        reason = "the game is won" if state.won else "needs an empty stock, every card face up"
        return AutoComplete("not_available", (), reason)
    found = finish(state, nodes=nodes, seconds=seconds,
                   polish_nodes=POLISH_NODES if polish else 0)
    if found.solved:
        return AutoComplete("ready", found.actions, f"{len(found.actions)} actions to win")
    if found.status == "unsolvable":
        return AutoComplete("unsolvable", (), "the rest cannot be won: undo a few moves")
    return AutoComplete("unknown", (), "no finish found")
