"""Shortening a found win: the same game won in fewer actions.

The searches look for *a* win, not a short one: their lines wander (a run parked on
one column then moved on, a move that nothing later needs, a detour that comes back
to a position already seen). This post-pass cuts them out while keeping a win:

- **shortcuts**: from each position of the line, one or two legal actions that reach a
  later position of the line replace everything in between;
- **detours**: an action whose removal still leaves a legal, winning line is dropped;
- **merges**: cards moved twice (``a → b``, later ``b → c``, ``b`` untouched between)
  move once (``a → c``), at the first or the second place.

Every edit is checked by replaying the rest of the line on the board, stopping as soon
as it comes back to a position of the current line (from there the line is known to
win). An edit is kept only when the line gets strictly shorter, so the result is never
longer than the input. Work is bounded by a budget of positions played, so the
answer is deterministic; the engine replays the result (:mod:`replay`) before use.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.engine.solver.board import DEAL, DOWN, EMPTY, Board, Columns, Step, run_length
from app.engine.solver.moves import all_steps, deal_row, play

Position = tuple[Columns, int]
"""Columns and rows dealt: what the line's positions are compared by."""

PLAYS_PER_ACTION = 40
"""Default budget: positions the passes may play per action of the input line."""


class _Line:
    """A winning line with its positions, and the budget left to edit it."""

    def __init__(self, board: Board, steps: Iterable[Step], over_empty: bool, budget: int):
        self.board = board
        self.over_empty = over_empty
        self.budget = budget
        self.reset(list(steps))

    def reset(self, steps: list[Step]) -> None:
        self.steps = steps
        position: Position = (self.board.columns, self.board.dealt)
        self.positions = [position]
        for step in steps:
            nxt = self.advance(position, step)
            assert nxt is not None, "a line given to shorten must be legal"
            position = nxt
            self.positions.append(position)
        # the latest index of each position: jumping there skips the most
        self.index = {key: i for i, key in enumerate(self.positions)}

    def advance(self, position: Position, step: Step) -> Position | None:
        """The position after ``step`` if it is legal there (the rule book's checks)."""
        columns, dealt = position
        src, dst, count = step
        if src < 0:
            rows = self.board.rows
            if dealt >= len(rows) or (not self.over_empty and EMPTY in columns):
                return None
            return deal_row(columns, rows[dealt])[0], dealt + 1
        source = columns[src]
        if src == dst or count < 1 or run_length(source) < count:
            return None
        target = columns[dst]
        if target:
            top = target[-1]
            if top >= DOWN or top & 15 != (source[-count] & 15) + 1:
                return None
        elif count == len(source):
            return None  # a whole column into an empty one: refused as pointless
        return play(columns, step)[0], dealt

    def won(self, position: Position) -> bool:
        columns, dealt = position
        return dealt == len(self.board.rows) and not any(columns)

    def attempt(self, at: int, tail: Iterable[Step]) -> bool:
        """Replace everything after position ``at`` by ``tail``, if that wins in fewer
        actions: replay until the line is rejoined at a later position, or won."""
        length = len(self.steps)
        position = self.positions[at]
        made: list[Step] = []
        for step in tail:
            if self.budget <= 0 or at + len(made) + 1 >= length:
                return False
            self.budget -= 1
            nxt = self.advance(position, step)
            if nxt is None:
                return False
            made.append(step)
            position = nxt
            rejoin = self.index.get(position, -1)
            if rejoin > at + len(made):
                self.reset(self.steps[:at] + made + self.steps[rejoin:])
                return True
            if self.won(position):
                self.reset(self.steps[:at] + made)
                return True
        return False


def shorten(
    board: Board, steps: Iterable[Step], *, over_empty: bool, budget: int | None = None
) -> tuple[Step, ...]:
    """A winning line from ``board`` no longer than ``steps`` (a win from ``board``).

    The one-action shortcuts always run (cheap: one look at each position's moves);
    the other passes share ``budget`` positions played (default
    :data:`PLAYS_PER_ACTION` per action; 0 skips them).
    """
    line = _Line(board, steps, over_empty, 1 << 62)
    _shortcuts(line)
    line.budget = PLAYS_PER_ACTION * len(line.steps) if budget is None else budget
    while line.budget > 0:
        before = len(line.steps)
        _detours(line)
        _merges(line)
        _shortcuts(line, depth=2)
        if len(line.steps) == before:
            break
    return tuple(line.steps)


def _next_moves(line: _Line, position: Position) -> list[Step]:
    columns, dealt = position
    out = all_steps(columns)
    if dealt < len(line.board.rows) and (line.over_empty or EMPTY not in columns):
        out.append(DEAL)
    return out


def _shortcuts(line: _Line, depth: int = 1) -> None:
    """From each position, jump to the latest later position one (or two) actions reach."""
    at = 0
    while at < len(line.steps) and line.budget > 0:
        position = line.positions[at]
        saved, tail, rejoin = 0, [line.steps[at]], at + 1
        for first in _next_moves(line, position):
            line.budget -= 1
            middle = line.advance(position, first)
            if middle is None:
                continue
            j = line.index.get(middle, -1)
            if j - at - 1 > saved:
                saved, tail, rejoin = j - at - 1, [first], j
            if depth < 2:
                continue
            for second in _next_moves(line, middle):
                line.budget -= 1
                end = line.advance(middle, second)
                j = -1 if end is None else line.index.get(end, -1)
                if j - at - 2 > saved:
                    saved, tail, rejoin = j - at - 2, [first, second], j
        if saved:
            line.reset(line.steps[:at] + tail + line.steps[rejoin:])
        at += 1


def _detours(line: _Line) -> None:
    """Drop each action whose absence still wins (the rest replayed as it is)."""
    at = len(line.steps) - 1
    while at >= 0 and line.budget > 0:
        if at < len(line.steps):
            line.attempt(at, line.steps[at + 1:])
        at -= 1


def _merges(line: _Line) -> None:
    """Cards moved twice in a row of their own (a → b, later b → c) move once (a → c)."""
    at = 0
    while at < len(line.steps) and line.budget > 0:
        src, dst, count = line.steps[at]
        later = _next_use(line.steps, at, dst)
        if src >= 0 and later is not None and line.steps[later][2] == count:
            merged = (src, line.steps[later][1], count)
            between = line.steps[at + 1:later]
            rest = line.steps[later + 1:]
            if merged[1] != src and not line.attempt(at, [merged, *between, *rest]):
                line.attempt(at, [*between, merged, *rest])
        at += 1


def _next_use(steps: list[Step], at: int, column: int) -> int | None:
    """The next action after ``at`` that takes cards from ``column``, if nothing was
    put on it or dealt before (else the cards moved at ``at`` are no longer on top)."""
    for later in range(at + 1, len(steps)):
        src, dst, _ = steps[later]
        if src < 0 or dst == column:
            return None
        if src == column:
            return later
    return None
