"""Guided hints for solo and daily games, and the way back to the last winnable position.

A solo or daily hint may use the player's **whole deal** (face-down cards and stock
included): the player plays their own deal alone, so there is no opponent to leak to;
the answer is one move, never a card; every hint is counted on the game (an assist);
and the daily deal is the same for everyone, hints included. A duel's hint stays
:func:`app.engine.solver.hint` (what the player sees only). docs/solo-and-daily.md
says why at length.

- :func:`guide` — a verified winning line from the position whose first action leads to
  a position **not seen before in this game** (``avoid``): following hints never goes
  round in circles. When no such line is found it walks back (:func:`walk_back`).
- :func:`walk_back` — how many undos lead to the most recent winnable position of the
  game's undo stack, with a winning line from there.
- :func:`deal_line` — where the game stands on its solvable deal's own verified win (its
  start, or a position that win passes through), the rest of that win: a hint's line
  and a rescue's (:func:`rescue_on_line`) without a search.

Server side only: the lines are computed from hidden cards. Every search takes a
``stop`` callable (a cancel flag checked now and then) and a wall-clock budget, so a
player who waits sees an answer within seconds or cancels.
"""

from __future__ import annotations

import hashlib
import time
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from app.engine.actions import Action, Deal
from app.engine.deal import deal
from app.engine.errors import IllegalAction
from app.engine.game import is_legal, legal_moves, push
from app.engine.solver.advice import Rescue
from app.engine.solver.solvable import solvable_deal
from app.engine.solver.solve import Solution, solve
from app.engine.state import GameState
from app.rewards.assist import RESCUE_ACTIONS, Stopped, rescue_actions, stopping_on

Key = bytes
"""A position's identity in a game (:func:`position_key`): 16 bytes, cheap to send."""
Stop = Callable[[], bool]

GUIDE_NODES = 200_000
"""Node budget of a hint's first search (the rescue's)."""
DETOUR_NODES = 40_000
"""Node budget of each search from a first action other than the line's own."""
DETOURS = 12
"""First actions tried, at most, when the line's own first action repeats a position."""
BACK_NODES = 60_000
"""Node budget of each winnability test of :func:`walk_back`."""
FIRST_SHARE = 0.5
"""Share of a hint's time budget its first search may spend before walking back."""


def position_key(state: GameState) -> Key:
    """Every card where it lies (columns face down and up, stock, runs removed): two
    states with the same key are the same position, whatever their history."""
    cards = array("H")
    for column in state.columns:
        cards.append(len(column.down))
        cards.extend(column.down)
        cards.append(len(column.up))
        cards.extend(column.up)
    cards.append(len(state.stock))
    cards.extend(state.stock)
    cards.extend(state.removed)
    return hashlib.blake2b(cards.tobytes(), digest_size=16).digest()


def keys_along(start: GameState, actions: Iterable[Action]) -> tuple[GameState, set[Key]]:
    """The position after ``actions`` from ``start`` and the keys of every position on
    the way (start included): the positions seen in a game, undos included."""
    state = start
    seen = {position_key(state)}
    for action in actions:
        state = push(state, action)
        seen.add(position_key(state))
    return state, seen


class _Clock:
    """One wall-clock budget shared by several searches (None: nodes only)."""

    def __init__(self, seconds: float | None, stop: Stop | None) -> None:
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.stop = stop

    def left(self, share: float = 1.0) -> float | None:
        if self.deadline is None:
            return None
        return max(0.01, (self.deadline - time.perf_counter()) * share)

    @property
    def over(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def check(self) -> None:
        if self.stop is not None and self.stop():
            raise Stopped

    def solve(self, state: GameState, *, nodes: int, share: float = 1.0,
              polish: int = 0, exhaustive: bool = False) -> Solution:
        self.check()
        return solve(state, nodes=nodes, seconds=self.left(share), polish_nodes=polish,
                     exhaustive=exhaustive, progress=stopping_on(self.stop))


def deal_line(state: GameState, deal_of: tuple[int, int] | None
              ) -> tuple[Action, ...] | None:
    """The rest of the solvable deal's own verified win when ``state`` stands on it: the
    deal's start or any position that win passes through (solvable deals only:
    ``deal_of`` = (number, suits)); None elsewhere, or when the line is not legal under
    the game's rules. No search: a 4-suit deal's may not find a win within its budget at
    all (deal 2, 4 suits: "no way out found" after 2.5 s at the start of a deal known
    to be solvable)."""
    if deal_of is None:
        return None
    known = solvable_deal(*deal_of)
    if not known.solution:
        return None
    target = position_key(state)
    here = deal(known.source, state.rules)
    rest: tuple[Action, ...] | None = None
    try:
        for index, action in enumerate(known.solution):
            if rest is None and position_key(here) == target:
                rest = known.solution[index:]
            here = push(here, action)  # the whole line, checked legal under these rules
    except IllegalAction:
        return None
    return rest


def rescue_on_line(state: GameState, deal_of: tuple[int, int] | None, *, nodes: int,
                   seconds: float | None = None, stop: Stop | None = None) -> Rescue:
    """A rescue (:func:`app.rewards.assist.rescue_actions`), played along the solvable
    deal's own verified win where the game stands on it: at once, and never "no way
    out found" at the start of a deal known to be winnable."""
    line = deal_line(state, deal_of)
    if not line:
        return rescue_actions(state, nodes=nodes, seconds=seconds, stop=stop)
    return Rescue("way_out", line[:RESCUE_ACTIONS], len(line),
                  f"a way out: {len(line)} actions to win", 0, line)


def _fresh_line(state: GameState, avoid: frozenset[Key], clock: _Clock, *, nodes: int,
                share: float, deal_of: tuple[int, int] | None = None
                ) -> tuple[Action, ...] | None:
    """A winning line whose first action leads to a position not in ``avoid``, or None."""
    line = deal_line(state, deal_of)
    if line is None:
        # No polish: only the first action is shown, and polish's thorough shortening
        # has no time cap.
        found = clock.solve(state, nodes=nodes, share=share)
        if not found.solved:
            return None  # brief searches from each first action would not do better
        line = found.actions
    if not line or position_key(push(state, line[0])) not in avoid:
        return line
    # The line's first action repeats a position: the other first actions, each
    # searched briefly, in the engine's order.
    tried = 0
    firsts: list[Action] = [*legal_moves(state)]
    if is_legal(state, Deal()):
        firsts.append(Deal())
    for action in firsts:
        if tried >= DETOURS or clock.over:
            break
        if action == line[0]:
            continue
        after = push(state, action)
        if position_key(after) in avoid:
            continue
        tried += 1
        if after.won:
            return (action,)
        rest = clock.solve(after, nodes=DETOUR_NODES, share=0.25)
        if rest.solved:
            return (action, *rest.actions)
    return None


@dataclass(frozen=True, slots=True)
class WalkBack:
    """How far back the game is winnable.

    ``found``: ``undos`` undos lead to a winnable position and ``line`` wins from there
    (first action to a position not seen). ``start``: none was proved in time, but the
    deal's start is known to be winnable (a solvable deal): ``undos`` lead there,
    ``line`` is empty. ``unknown``: nothing proved in time. ``nothing``: nothing to
    undo. ``stopped``: cancelled.
    """

    status: Literal["found", "start", "unknown", "nothing", "stopped"]
    undos: int
    line: tuple[Action, ...]
    move: int
    """The target's place in the undo stack (actions that still stand there): "undo to
    move N"."""


def _stack(state: GameState) -> list[GameState]:
    chain = [state]
    while (previous := chain[-1].previous) is not None:
        chain.append(previous)
    return chain


def walk_back(state: GameState, *, avoid: frozenset[Key] = frozenset(),
              known: frozenset[Key] = frozenset(), deal_of: tuple[int, int] | None = None,
              seconds: float | None = None, nodes: int = BACK_NODES,
              stop: Stop | None = None) -> WalkBack:
    """The fewest undos (1 up) that lead to a position with a verified win.

    A position that leads to a winnable one is winnable (replay the moves), so
    winnability only grows going back: a galloping then a binary search over the undo
    stack tests a few positions, not each. A test that runs out of budget counts as
    "not winnable" (the answer may then be further back than needed, never to a
    position without a win). Positions in ``known`` (on an earlier verified line) are
    winnable: the search never goes past the most recent of them.
    """
    try:
        return _walk_back(state, avoid, known, deal_of, _Clock(seconds, stop), nodes)
    except Stopped:
        return WalkBack("stopped", 0, (), 0)


def _walk_back(state: GameState, avoid: frozenset[Key], known: frozenset[Key],
               deal_of: tuple[int, int] | None, clock: _Clock, nodes: int) -> WalkBack:
    chain = _stack(state)
    depth = len(chain) - 1
    if depth == 0:
        return WalkBack("nothing", 0, (), 0)
    lines: dict[int, tuple[Action, ...]] = {}

    def winnable(k: int) -> bool:
        found = _fresh_line(chain[k], avoid, clock, nodes=nodes, share=0.5, deal_of=deal_of)
        if found is None:
            return False
        lines[k] = found
        return True

    ceiling = next((k for k in range(1, depth + 1) if position_key(chain[k]) in known), None)
    low, high = 0, None  # low: not winnable (as far as tested); high: winnable
    k = 1
    while high is None and not clock.over:
        k = min(k, depth) if ceiling is None else min(k, ceiling)
        if winnable(k):
            high = k
        elif k >= depth or (ceiling is not None and k >= ceiling):
            break
        else:
            low, k = k, k * 2
    while high is not None and high - low > 1 and not clock.over:
        middle = (low + high) // 2
        if winnable(middle):
            high = middle
        else:
            low = middle
    if high is not None:
        return WalkBack("found", high, lines[high], depth - high)
    if deal_of is not None:  # a solvable deal: its start has a win
        start = _fresh_line(chain[depth], avoid, clock, nodes=nodes, share=1.0,
                            deal_of=deal_of) if not clock.over else None
        return WalkBack("start", depth, start or (), 0)
    return WalkBack("unknown", 0, (), 0)


GuideStatus = Literal["line", "no_win", "stopped"]


@dataclass(frozen=True, slots=True)
class Guidance:
    """A hint's answer. ``line``: ``actions`` win from the position and the first leads
    to a position not seen. ``no_win``: none found from here; ``back`` says how far back
    the game is winnable. ``stopped``: cancelled."""

    status: GuideStatus
    actions: tuple[Action, ...]
    back: WalkBack | None = None


def guide(state: GameState, *, avoid: frozenset[Key] = frozenset(),
          known: frozenset[Key] = frozenset(), deal_of: tuple[int, int] | None = None,
          seconds: float | None = None, nodes: int = GUIDE_NODES,
          stop: Stop | None = None) -> Guidance:
    """A fresh winning line from ``state`` (full knowledge: server side only), or, when
    there is none within budget, the way back to the last winnable position."""
    clock = _Clock(seconds, stop)
    try:
        share = FIRST_SHARE if state.previous is not None else 1.0  # else nowhere back
        line = _fresh_line(state, avoid, clock, nodes=nodes, share=share, deal_of=deal_of)
        if line is not None:
            return Guidance("line", line)
        back = _walk_back(state, avoid, known, deal_of, clock, BACK_NODES)
    except Stopped:
        return Guidance("stopped", ())
    if back.status == "stopped":
        return Guidance("stopped", ())
    return Guidance("no_win", (), back)
