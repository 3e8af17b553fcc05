"""What the solver tells a player: a hint, a rescue when stuck, the rest of a finished game.

Knowledge differs on purpose:

- :func:`hint` sees only what the player sees (face-up cards, how many are face down,
  how many rows are left in the stock). Its answer may be shown to the player as it is.
- :func:`rescue` and :func:`finish` use full knowledge. A rescue's actions reveal
  nothing the player could not learn by playing them, but they are computed from
  hidden cards: call them on the server only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from app.engine.actions import Action, Deal, Flip, Move, Undo
from app.engine.cards import FACE, SUIT_SYMBOLS
from app.engine.game import is_legal
from app.engine.solver.board import DEAL, DOWN, EMPTY, Board, Columns, Step, settle
from app.engine.solver.moves import all_steps, candidate_steps, play
from app.engine.solver.score import score
from app.engine.solver.search import Progress
from app.engine.solver.solve import DEFAULT_NODES, Solution, solve
from app.engine.state import COLUMNS, GameState

UNKNOWN = 0x0F
"""A card the player cannot see yet: rank 15 builds on nothing and takes nothing."""

HINT_DEPTH = 3
HINT_WIDTH = 40
REVEAL = 2_000
"""Worth of turning a card face up, in score units (a chunk of disorder is 1000)."""
EMPTY_BEFORE_DEAL = 2_500
"""Cost of an empty column while it blocks a deal: more than it earns in the score."""

POLISH_NODES = 10_000
"""Nodes a rescue or a finish spends after its first win looking for a shorter line:
these lines are played in front of the player, and a wandering one looks clumsy."""
OPEN_HINT_NODES = 5_000
OPEN_HINT_POLISH = 2_000
"""Budgets of a hint when nothing is hidden any more (the solver's line is then fair)."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The suggested next action (None when nothing helps) and why, in a few words."""

    action: Action | None
    reason: str


def _visible_board(state: GameState) -> Board:
    """The position as the player sees it: hidden cards become :data:`UNKNOWN`."""
    columns = tuple(
        settle(bytes([UNKNOWN | DOWN] * len(c.down) + [card & FACE for card in c.up]))[0]
        for c in state.columns
    )
    rows = tuple(bytes([UNKNOWN] * COLUMNS) for _ in range(state.deals_left))
    return Board(columns, rows, 0, len(state.removed))


def _value(columns: Columns, removed: int, fill_to_deal: bool = False) -> int:
    """Score plus turned cards; with ``fill_to_deal`` (a deal to come, and the rules refuse
    it over an empty column) an empty column counts against, so that emptying one is never
    progress by itself and filling one to deal is."""
    revealed = sum(column.count(UNKNOWN) for column in columns)
    value = score(columns, removed) + REVEAL * revealed
    if fill_to_deal:
        value -= EMPTY_BEFORE_DEAL * columns.count(EMPTY)
    return value


def _reason(columns: Columns, step: Step) -> str:
    src, dst, count = step
    source, target = columns[src], columns[dst]
    card = source[-count]
    suit = SUIT_SYMBOLS[(card >> 4) & 3]
    left = source[:-count]
    joined = bool(target) and target[-1] == card + 1
    _, runs = settle(target + source[-count:])
    if runs:
        return f"completes a {suit} run"
    if left and left[-1] >= DOWN:
        return "uncovers a card"
    if not left:
        return "empties a column"
    if joined:
        return f"joins {suit} run"
    if not target:
        return "uses the empty column"
    return "makes room"


def reason_for(state: GameState, action: Action) -> str:
    """Why ``action`` helps, in the hint's few words, from what the player sees only (the
    words the web client translates): for a move chosen by another search (a solo
    game's guided hint)."""
    if isinstance(action, Move):
        board = _visible_board(state)
        return _reason(board.columns, (action.src, action.dst, action.count))
    if isinstance(action, Deal):
        return "deal"
    if isinstance(action, Flip):
        return "turns a card face up"
    return "no useful move: undo"


def hint(state: GameState) -> Suggestion:
    """The best next action for the player, **without knowledge of face-down cards**.

    A short look-ahead (a few moves, no deals) over the visible position, valuing
    uncovered cards, same-suit order and empty columns; the hint is the first action
    of the best line that improves on the present position. Otherwise a deal when one
    is legal, otherwise an undo when one is possible. Never an illegal action.
    """
    if state.won:
        return Suggestion(None, "the game is won")
    for col, column in enumerate(state.columns):
        if column.down and not column.up and state.rules.manual_flip:
            return Suggestion(Flip(col), "turns a card face up")
    board = _visible_board(state)
    if can_finish(state):
        opened = _open_hint(state, board)
        if opened is not None:
            return opened
    best = _best_first_step(board, bool(state.stock) and not state.rules.deal_over_empty)
    if best is not None:
        action: Action = Move(*best)
        if is_legal(state, action):
            return Suggestion(action, _reason(board.columns, best))
    if is_legal(state, Deal()):
        return Suggestion(Deal(), "deal")
    filler = _fill_for_deal(state, board)
    if filler is not None:
        return Suggestion(filler, "fills the empty column so you can deal")
    if state.previous is not None:
        return Suggestion(Undo(), "no useful move: undo")
    return Suggestion(None, "no useful move left")


def _open_hint(state: GameState, board: Board) -> Suggestion | None:
    """When every card is visible (empty stock, nothing face down) the player knows all
    the solver does: the hint is then the first action of its shortened winning line."""
    found = solve(state, nodes=OPEN_HINT_NODES, polish_nodes=OPEN_HINT_POLISH)
    if not found.solved or not found.actions:
        return None
    action = found.actions[0]
    if not isinstance(action, Move) or not is_legal(state, action):
        return None
    step = (action.src, action.dst, action.count)
    return Suggestion(action, _reason(board.columns, step))


def _fill_for_deal(state: GameState, board: Board) -> Action | None:
    """When only an empty column stops a deal: the best move into it (classic rules)."""
    if not state.stock or state.rules.deal_over_empty:
        return None
    best: tuple[int, Step] | None = None
    for step in all_steps(board.columns):
        if board.columns[step[1]]:
            continue
        child, runs = play(board.columns, step)
        value = _value(child, board.removed + runs, True)
        if best is None or value > best[0]:
            best = (value, step)
    if best is None:
        return None
    action = Move(*best[1])
    return action if is_legal(state, action) else None


def _best_first_step(board: Board, fill_to_deal: bool) -> Step | None:
    """First step of the best line of up to :data:`HINT_DEPTH` moves, if any improves."""
    start_value = _value(board.columns, board.removed, fill_to_deal)
    best_value, best_step = start_value, None
    seen = {board.columns}
    level: list[tuple[Columns, int, Step]] = [(board.columns, board.removed, DEAL)]
    for depth in range(HINT_DEPTH):
        children: list[tuple[int, int, Columns, int, Step]] = []
        for columns, removed, first in level:
            for step in candidate_steps(columns):
                child, runs = play(columns, step)
                if child in seen:
                    continue
                seen.add(child)
                value = _value(child, removed + runs, fill_to_deal)
                origin = step if depth == 0 else first
                children.append((value, -len(children), child, removed + runs, origin))
        if not children:
            break
        children.sort(reverse=True, key=_key)
        if children[0][0] > best_value:
            best_value, best_step = children[0][0], children[0][4]
        level = [(child, removed, first) for _, _, child, removed, first in children[:HINT_WIDTH]]
    return best_step


def _key(item: tuple[int, int, Columns, int, Step]) -> tuple[int, int]:
    return item[0], item[1]


RescueStatus = Literal["way_out", "no_way_out", "unknown"]

RESCUE_SHOWN = 5
FIND_SHARE = 0.6
"""Share of a rescue's time budget its first search (find a win) may take."""


@dataclass(frozen=True, slots=True)
class Rescue:
    """Whether the game can still be won from here, and the next few actions if so."""

    status: RescueStatus
    actions: tuple[Action, ...]
    remaining: int
    """Actions in the whole winning line (0 when there is none)."""

    message: str
    nodes: int
    line: tuple[Action, ...] = ()
    """The whole verified winning line (server side only): kept to answer the next
    rescue from where this one stops without searching again."""


def rescue(
    state: GameState,
    *,
    nodes: int = DEFAULT_NODES,
    seconds: float | None = None,
    shown: int = RESCUE_SHOWN,
    polish_nodes: int = POLISH_NODES,
    progress: Progress | None = None,
) -> Rescue:
    """Full knowledge (**server-side only**): is there still a way to win from ``state``?

    Returns the next ``shown`` actions of a verified win, or ``no_way_out`` when an
    exhaustive search proves the position lost ("no way out — undo a few moves"), or
    ``unknown`` when the budget ran out before either. ``seconds`` caps both searches
    together (find, then prove with what is left), so a player waits
    at most that long. The win is shortened first (``polish_nodes``, see :func:`solve`):
    the actions shown are those of a short line. ``progress`` is the solver's (it may
    raise to cancel the search).
    """
    started = time.perf_counter()
    first = None if seconds is None else seconds * FIND_SHARE
    found = solve(state, nodes=nodes, seconds=first, polish_nodes=polish_nodes,
                  progress=progress)
    if found.solved:
        count = len(found.actions)
        return Rescue("way_out", found.actions[:shown], count,
                      f"a way out: {count} actions to win", found.nodes, found.actions)
    rest = None if seconds is None else max(0.05, seconds - (time.perf_counter() - started))
    proof = solve(state, nodes=nodes, seconds=rest, exhaustive=True, progress=progress)
    spent = found.nodes + proof.nodes
    if proof.solved:
        count = len(proof.actions)
        return Rescue("way_out", proof.actions[:shown], count,
                      f"a way out: {count} actions to win", spent, proof.actions)
    if proof.status == "unsolvable":
        return Rescue("no_way_out", (), 0, "no way out — undo a few moves", spent)
    return Rescue("unknown", (), 0, "no way out found — undo a few moves", spent)


class NotFinishable(ValueError):
    """Finish asked for while the stock still holds cards or some card is face down."""


def can_finish(state: GameState) -> bool:
    """The auto-finish button's condition: stock empty and every card face up."""
    return not state.stock and all(not column.down for column in state.columns)


def finish(
    state: GameState, *, nodes: int = DEFAULT_NODES, seconds: float | None = None,
    polish_nodes: int = POLISH_NODES,
) -> Solution:
    """The remaining actions of a game whose cards are all visible (the finish button).

    Uses no hidden knowledge, since there is none left; status ``solved`` confirms
    the rest is winnable, ``unsolvable`` that it is not.
    """
    if not can_finish(state):
        raise NotFinishable("finish needs an empty stock and every card face up")
    found = solve(state, nodes=nodes, seconds=seconds, polish_nodes=polish_nodes)
    if found.solved:
        return found
    return solve(state, nodes=nodes, seconds=seconds, exhaustive=True)
