"""Solve a position with full knowledge of the cards: the entry point the rest uses.

Every win returned here has been replayed through the engine (:mod:`replay`) first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from app.engine.actions import Action
from app.engine.solver.board import board_from_state
from app.engine.solver.polish import polish
from app.engine.solver.replay import verified_actions
from app.engine.solver.schedule import portfolio
from app.engine.solver.search import Limits, Progress, depth_first
from app.engine.solver.shorten import shorten
from app.engine.state import GameState

Status = Literal["solved", "unsolvable", "unknown"]

DEFAULT_NODES = 300_000
"""Node budget of a plain :func:`solve`: enough for nearly every deal of any suit count."""


class SolverLimitError(ValueError):
    """A node budget or time cap that is not a positive number."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The answer for one position.

    ``status`` is ``solved`` (``actions`` wins from the position; replay-verified),
    ``unsolvable`` (an exhaustive search proved there is no win) or ``unknown`` (the
    budget ran out first). ``nodes`` is the positions expanded: the solver's effort,
    the same on every machine; ``seconds`` is wall time, for information only.
    """

    status: Status
    actions: tuple[Action, ...]
    nodes: int
    seconds: float
    polish_nodes: int = 0
    """Nodes spent after the first win looking for a shorter one (``polish``)."""

    @property
    def solved(self) -> bool:
        return self.status == "solved"


def check_limits(nodes: int, seconds: float | None, progress: Progress | None = None) -> Limits:
    if type(nodes) is not int or nodes < 1:
        raise SolverLimitError(f"the node budget must be a whole number from 1 up, not {nodes!r}")
    if seconds is not None and not seconds > 0:
        raise SolverLimitError(
            f"the time cap must be a positive number of seconds, not {seconds!r}"
        )
    return Limits(nodes=nodes, seconds=seconds, progress=progress)


def solve(
    state: GameState,
    *,
    nodes: int = DEFAULT_NODES,
    seconds: float | None = None,
    exhaustive: bool = False,
    polish_nodes: int = 0,
    progress: Progress | None = None,
    restart_after: int | None = None,
) -> Solution:
    """Search for a win from ``state`` knowing every card (face-down and stock included).

    Server-side only: the actions reveal hidden cards. Deterministic for a given
    ``nodes`` budget; ``seconds`` is an optional wall-clock cap on top (then the
    answer may depend on the machine). With ``exhaustive`` the search tries every
    legal move, slower, but can prove a position lost (status ``unsolvable``).

    Every win is cut short where it comes back near its own path (the cheap one-action
    shortcuts of :mod:`shorten`). With ``polish_nodes``, for lines a player will watch,
    the solver also spends up to that many nodes after the first win on beams looking
    for a shorter one (:func:`~app.engine.solver.polish.polish`), then runs every
    shortening pass.

    A budget above :data:`~app.engine.solver.schedule.RESORT_AFTER` (400,000 nodes, more
    than the game ever gives) lets the first-win search fall back on its last resort
    (beams over every legal move, a noisy beam) once it has spent that many.
    ``restart_after`` (off by default: measurements only) switches to noisy restarts
    instead once the first-win search has spent that many nodes
    (:func:`~app.engine.solver.schedule.portfolio`).

    ``progress`` (if given) is called now and then with the nodes expanded so far and
    the depth of the line being explored, for a progress display.

    Under manual flips (``duel``) the solver flips every face-down card as soon as it
    is uncovered; the actions include those flips.
    """
    limits = check_limits(nodes, seconds, progress)
    if type(polish_nodes) is not int or polish_nodes < 0:
        raise SolverLimitError(
            f"polish_nodes must be a whole number from 0 up, not {polish_nodes!r}"
        )
    started = time.perf_counter()
    if state.won:
        return Solution("solved", (), 0, 0.0)
    board = board_from_state(state)
    over_empty = state.rules.deal_over_empty
    if exhaustive:
        outcome = depth_first(board, limits, over_empty=over_empty, complete=True)
    else:
        outcome = portfolio(board, limits, over_empty=over_empty, restart_after=restart_after)
    if outcome.steps is None:
        status: Status = "unsolvable" if outcome.exhausted else "unknown"
        return Solution(status, (), outcome.nodes, time.perf_counter() - started)
    steps, extra = outcome.steps, 0
    budget: int | None = 0
    if polish_nodes > 0:
        budget = None  # the thorough post-pass too: this line is for watching
        cap = None if seconds is None else max(1e-3, seconds - (time.perf_counter() - started))
        first = outcome.nodes
        report = None if progress is None else (lambda n, d: progress(first + n, d))
        steps, extra = polish(board, steps, Limits(polish_nodes, cap, report),
                              over_empty=over_empty)
    steps = shorten(board, steps, over_empty=over_empty, budget=budget)
    actions = verified_actions(state, steps, must_win=True)
    return Solution("solved", tuple(actions), outcome.nodes, time.perf_counter() - started,
                    extra)
