"""The rules of play, in layers: ``check`` (why not), ``is_legal``, ``apply``, ``legal_actions``.

``apply`` never mutates: it returns the next position and the events that happened.
"""

from collections.abc import Iterable

from app.engine import errors
from app.engine.actions import Action, Deal, Flip, Move, Undo
from app.engine.cards import ACE, FACE, RUN_LENGTH, Card, suit_of
from app.engine.events import (
    ActionUndone,
    CardFlipped,
    CardsMoved,
    Event,
    GameWon,
    RowDealt,
    RunCompleted,
)
from app.engine.state import COLUMNS, RUNS_TO_WIN, Column, GameState


def movable_run_length(column: Column) -> int:
    """How many cards on top of a column form a movable same-suit run."""
    up = column.up
    length = len(up)
    if length == 0:
        return 0
    count = 1
    while count < length and (up[-count] & FACE) + 1 == (up[-count - 1] & FACE):
        count += 1
    return count


def _check_column(col: int, what: str) -> None:
    if not 0 <= col < COLUMNS:
        raise errors.BadColumn(f"{what} column {col} is not between 0 and 9")


def _check_move(state: GameState, move: Move) -> None:
    src = move.src
    dst = move.dst
    # hot path: one chained comparison per column instead of a call each
    if not 0 <= src < COLUMNS:
        _check_column(src, "source")
    if not 0 <= dst < COLUMNS:
        _check_column(dst, "target")
    if src == dst:
        raise errors.SameColumn(f"source and target are both column {src}")
    source = state.columns[src]
    up = source.up
    count = move.count
    if count < 1 or count > len(up):
        # more cards than the column holds is a bad count; more than its face-up cards,
        # cards that cannot move
        if count < 1 or count > len(up) + len(source.down):
            raise errors.BadCount(f"column {src} holds {len(source)} cards; cannot move {count}")
        raise _not_movable(src, count)
    for i in range(1, count):
        if (up[-i] & FACE) + 1 != (up[-i - 1] & FACE):
            raise _not_movable(src, count)
    target = state.columns[dst]
    if target.up:
        if (target.up[-1] & 15) != (up[-count] & 15) + 1:
            raise errors.BadTarget(
                f"a card goes only onto a card one rank higher (column {dst})"
            )
    elif target.down:
        if not state.rules.manual_flip:
            raise errors.BadTarget(f"column {dst} has no face-up card to build on")
    elif count == len(up) and not source.down:
        raise errors.Pointless(
            f"moving all of column {src} into the empty column {dst} changes nothing"
        )


def _not_movable(src: int, count: int) -> errors.NotMovable:
    return errors.NotMovable(
        f"the top {count} cards of column {src} are not a face-up run of one suit"
    )


def _check_deal(state: GameState) -> None:
    if not state.stock:
        raise errors.StockEmpty("the stock is empty")
    if not state.rules.deal_over_empty:
        for index, column in enumerate(state.columns):
            if column.empty:
                raise errors.EmptyColumn(f"column {index} is empty: fill it before dealing")


def _check_flip(state: GameState, flip: Flip) -> None:
    _check_column(flip.col, "flip")
    if not state.rules.manual_flip:
        raise errors.NothingToFlip("cards turn face up by themselves under these rules")
    column = state.columns[flip.col]
    if column.up or not column.down:
        raise errors.NothingToFlip(f"column {flip.col} has no face-down card on top")


def _check_undo(state: GameState) -> None:
    if state.previous is None:
        if state.barrier:
            raise errors.UndoBarrier("the last flip, deal, uncovering or completed run is final")
        raise errors.NothingToUndo("there is nothing to undo")


def check(state: GameState, action: Action) -> None:
    """Raise the specific :class:`errors.IllegalAction` that forbids ``action``, if any."""
    if isinstance(action, Move):
        _check_move(state, action)
    elif isinstance(action, Deal):
        _check_deal(state)
    elif isinstance(action, Flip):
        _check_flip(state, action)
    else:
        _check_undo(state)


def is_legal(state: GameState, action: Action) -> bool:
    try:
        check(state, action)
    except errors.IllegalAction:
        return False
    return True


def _ends_with_run(up: tuple[Card, ...]) -> bool:
    if len(up) < RUN_LENGTH or (up[-1] & 15) != ACE:
        return False
    for i in range(1, RUN_LENGTH):
        if (up[-i] & FACE) + 1 != (up[-i - 1] & FACE):
            return False
    return True


def _settle(
    state: GameState, columns: list[Column], col: int, removed: list[int], events: list[Event]
) -> bool:
    """Remove a completed run from ``col`` and auto-flip; True if a card turned or a run left."""
    column = columns[col]
    changed = False
    # A loop, not an if: a layout may stack one complete run on another (a king dealt
    # onto an ace), and the rule book removes a run whenever a column ends with one.
    while _ends_with_run(column.up):
        removed.append(suit_of(column.up[-1]))
        column = Column(column.down, column.up[:-RUN_LENGTH])
        events.append(RunCompleted(col, removed[-1]))
        changed = True
    if not column.up and column.down and not state.rules.manual_flip:
        events.append(CardFlipped(col, column.down[-1], automatic=True))
        column = Column(column.down[:-1], (column.down[-1],))
        changed = True
    columns[col] = column
    return changed


def _next(
    state: GameState,
    columns: list[Column],
    stock: tuple[Card, ...],
    removed: tuple[int, ...],
    events: list[Event],
    final: bool,
) -> tuple[GameState, tuple[Event, ...]]:
    if len(removed) >= RUNS_TO_WIN > len(state.removed):
        events.append(GameWon())
    undoable = not final or state.rules.undo == "all"
    return (
        GameState(
            state.rules,
            tuple(columns),
            stock,
            removed,
            state.actions + 1,
            state if undoable else None,
            state.barrier if undoable else True,
        ),
        tuple(events),
    )


def _do_move(state: GameState, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    columns = list(state.columns)
    src = move.src
    dst = move.dst
    count = move.count
    source = columns[src]
    target = columns[dst]
    run = source.up[-count:]
    left = source.up[:-count]
    landed = target.up + run
    columns[src] = Column(source.down, left)
    columns[dst] = Column(target.down, landed)
    events: list[Event] = [CardsMoved(src, dst, run, target.up[-1] if target.up else None)]
    # Settling is rare; test cheaply whether either column can need it before calling.
    if (len(landed) < RUN_LENGTH or (landed[-1] & 15) != ACE) and not (
        (not left and source.down and not state.rules.manual_flip)
        or (len(left) >= RUN_LENGTH and (left[-1] & 15) == ACE)
    ):
        return _next(state, columns, state.stock, state.removed, events, False)
    removed = list(state.removed)
    final = _settle(state, columns, dst, removed, events)
    final = _settle(state, columns, src, removed, events) or final
    return _next(state, columns, state.stock, tuple(removed), events, final)


def _do_deal(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    row = state.stock[:COLUMNS]
    columns = list(state.columns)
    for col, card in enumerate(row):
        columns[col] = Column(columns[col].down, (*columns[col].up, card))
    events: list[Event] = [RowDealt(row)]
    removed = list(state.removed)
    for col in range(len(row)):
        _settle(state, columns, col, removed, events)
    return _next(state, columns, state.stock[COLUMNS:], tuple(removed), events, final=True)


def _do_flip(state: GameState, flip: Flip) -> tuple[GameState, tuple[Event, ...]]:
    columns = list(state.columns)
    column = columns[flip.col]
    columns[flip.col] = Column(column.down[:-1], (column.down[-1],))
    events: list[Event] = [CardFlipped(flip.col, column.down[-1], automatic=False)]
    return _next(state, columns, state.stock, state.removed, events, final=True)


def _do_undo(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    before = state.previous
    assert before is not None  # checked by _check_undo
    restored = GameState(
        before.rules,
        before.columns,
        before.stock,
        before.removed,
        state.actions + 1,
        before.previous,
        before.barrier,
    )
    return restored, (ActionUndone(),)


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """The position after ``action`` and what happened; raises if the action is illegal."""
    if type(action) is Move:  # the common case first, without the generic dispatch
        _check_move(state, action)
        return _do_move(state, action)
    check(state, action)
    if isinstance(action, Move):
        return _do_move(state, action)
    if isinstance(action, Deal):
        return _do_deal(state)
    if isinstance(action, Flip):
        return _do_flip(state, action)
    return _do_undo(state)


def push(state: GameState, action: Action) -> GameState:
    return apply(state, action)[0]


def replay(start: GameState, actions: Iterable[Action]) -> GameState:
    state = start
    for action in actions:
        state = push(state, action)
    return state


# Moves are values from a small domain: build each legal-range one once, not per position.
_MOVES = [
    [[Move(src, dst, count) for count in range(RUN_LENGTH + 1)] for dst in range(COLUMNS)]
    for src in range(COLUMNS)
]


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move, ordered by source column, then count, then target column."""
    columns = state.columns
    manual = state.rules.manual_flip
    by_rank: dict[int, list[int]] = {}  # rank of a face-up top card → columns showing it
    free: list[int] = []  # columns that count as empty for building
    hollow: list[int] = []  # columns with no cards at all
    for col, column in enumerate(columns):
        if column.up:
            by_rank.setdefault(column.up[-1] & 15, []).append(col)
        elif column.down:
            if manual:
                free.append(col)
        else:
            free.append(col)
            hollow.append(col)
    moves: list[Move] = []
    for src, source in enumerate(columns):
        up = source.up
        if not up:
            continue
        table = _MOVES[src]
        run = movable_run_length(source)
        for count in range(1, run + 1):
            targets = by_rank.get((up[-count] & 15) + 1, [])
            if free:
                whole = count == len(up) and not source.down
                targets = targets + [col for col in free if not (whole and col in hollow)]
                targets.sort()
            for dst in targets:
                if dst != src:
                    moves.append(table[dst][count])
    return moves


def legal_actions(state: GameState) -> list[Action]:
    actions: list[Action] = list(legal_moves(state))
    columns = state.columns
    if state.rules.manual_flip:
        actions.extend(
            Flip(col) for col, column in enumerate(columns) if column.down and not column.up
        )
    if state.stock and (
        state.rules.deal_over_empty or not any(column.empty for column in columns)
    ):
        actions.append(Deal())
    if state.previous is not None:
        actions.append(Undo())
    return actions


def is_stuck(state: GameState) -> bool:
    """No action but undo is left: no move, flip or deal."""
    return not any(not isinstance(action, Undo) for action in legal_actions(state))
