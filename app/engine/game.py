"""The rules of play, in layers: ``check`` (why not), ``is_legal``, ``apply``, ``legal_actions``.

``apply`` never mutates: it returns the next position and the events that happened.
``replay`` and ``push`` take the same steps without describing them (no events made).
"""

from collections.abc import Callable, Iterable

from app.engine import errors
from app.engine.actions import Action, Deal, Flip, Move, Undo
from app.engine.cards import ACE, FACE, RUN_LENGTH, Card, suit_of
from app.engine.events import (
    ACTION_UNDONE,
    GAME_WON,
    CardFlipped,
    CardsMoved,
    Event,
    RowDealt,
    RunCompleted,
)
from app.engine.state import COLUMNS, RUNS_TO_WIN, Column, GameState, run_length

Events = list[Event] | None  # where a step records what happened; None: nobody asked


def movable_run_length(column: Column) -> int:
    """How many cards on top of a column form a movable same-suit run."""
    return column.movable


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
    if count > source.movable:
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
    if not state.history:
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
    state: GameState, columns: list[Column], col: int, removed: list[int], events: Events
) -> bool:
    """Remove a completed run from ``col`` and auto-flip; True if a card turned or a run left."""
    column = columns[col]
    changed = False
    # A loop, not an if: a layout may stack one complete run on another (a king dealt
    # onto an ace), and the rule book removes a run whenever a column ends with one.
    while _ends_with_run(column.up):
        removed.append(suit_of(column.up[-1]))
        column = Column(column.down, column.up[:-RUN_LENGTH])
        if events is not None:
            events.append(RunCompleted(col, removed[-1]))
        changed = True
    if not column.up and column.down and not state.rules.manual_flip:
        if events is not None:
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
    events: Events,
    final: bool,
) -> GameState:
    if events is not None and len(removed) >= RUNS_TO_WIN > len(state.removed):
        events.append(GAME_WON)
    if not final or state.rules.undo == "all":
        return GameState(
            state.rules, tuple(columns), stock, removed, state.actions + 1, state.barrier,
            (state,),
        )
    return GameState(state.rules, tuple(columns), stock, removed, state.actions + 1, True)


def _do_move(state: GameState, move: Move, events: Events) -> GameState:
    _check_move(state, move)
    columns = list(state.columns)
    src = move.src
    dst = move.dst
    count = move.count
    source = columns[src]
    target = columns[dst]
    up = source.up
    run = up[-count:]
    left = up[:-count]
    onto = target.up
    landed = onto + run
    # what the new columns' move-generation facts are follows from the move itself
    movable = source.movable
    columns[src] = Column(
        source.down,
        left,
        top_rank=left[-1] & 15 if left else 0,
        movable=movable - count if count < movable else run_length(left),
    )
    joins = bool(onto) and (onto[-1] & FACE) == (run[0] & FACE) + 1
    columns[dst] = Column(
        target.down,
        landed,
        top_rank=source.top_rank,
        movable=count + target.movable if joins else count,
    )
    if events is not None:
        events.append(CardsMoved(src, dst, run, onto[-1] if onto else None))
    # Settling is rare; test cheaply whether either column can need it before calling.
    if (len(landed) < RUN_LENGTH or (landed[-1] & 15) != ACE) and not (
        (not left and source.down and not state.rules.manual_flip)
        or (len(left) >= RUN_LENGTH and (left[-1] & 15) == ACE)
    ):
        # the common case, _next inlined: an undoable move, nothing settled
        return GameState(
            state.rules, tuple(columns), state.stock, state.removed, state.actions + 1,
            state.barrier, (state,),
        )
    removed = list(state.removed)
    final = _settle(state, columns, dst, removed, events)
    final = _settle(state, columns, src, removed, events) or final
    return _next(state, columns, state.stock, tuple(removed), events, final)


def _do_deal(state: GameState, events: Events) -> GameState:
    _check_deal(state)
    row = state.stock[:COLUMNS]
    columns = list(state.columns)
    for col, card in enumerate(row):
        columns[col] = Column(columns[col].down, (*columns[col].up, card))
    if events is not None:
        events.append(RowDealt(row))
    removed = list(state.removed)
    for col in range(len(row)):
        _settle(state, columns, col, removed, events)
    return _next(state, columns, state.stock[COLUMNS:], tuple(removed), events, final=True)


def _do_flip(state: GameState, flip: Flip, events: Events) -> GameState:
    _check_flip(state, flip)
    columns = list(state.columns)
    column = columns[flip.col]
    columns[flip.col] = Column(column.down[:-1], (column.down[-1],))
    if events is not None:
        events.append(CardFlipped(flip.col, column.down[-1], automatic=False))
    return _next(state, columns, state.stock, state.removed, events, final=True)


def _do_undo(state: GameState, events: Events) -> GameState:
    _check_undo(state)
    before = state.history[0]
    if events is not None:
        events.append(ACTION_UNDONE)
    return GameState(
        before.rules, before.columns, before.stock, before.removed, state.actions + 1,
        before.barrier, before.history,
    )


def _step(state: GameState, action: Action, events: Events) -> GameState:
    if type(action) is Move:  # the common case first, without the generic dispatch
        return _do_move(state, action, events)
    if isinstance(action, Move):
        return _do_move(state, action, events)
    if isinstance(action, Deal):
        return _do_deal(state, events)
    if isinstance(action, Flip):
        return _do_flip(state, action, events)
    if isinstance(action, Undo):
        return _do_undo(state, events)
    raise TypeError(f"not an action: {action!r}")


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """The position after ``action`` and what happened; raises if the action is illegal."""
    events: list[Event] = []
    return _step(state, action, events), tuple(events)


def push(state: GameState, action: Action) -> GameState:
    """The position after ``action`` (as :func:`apply`, without describing it)."""
    return _step(state, action, None)


def replay(start: GameState, actions: Iterable[Action]) -> GameState:
    state = start
    for action in actions:
        state = _step(state, action, None)
    return state


# Moves are values from a small domain: build each legal-range one once, not per position.
_MOVES = [
    [[Move(src, dst, count) for count in range(RUN_LENGTH + 1)] for dst in range(COLUMNS)]
    for src in range(COLUMNS)
]
_FLIPS = [Flip(col) for col in range(COLUMNS)]
_DEAL = Deal()
_UNDO = Undo()


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move, ordered by source column, then count, then target column."""
    moves: list[Move] = []
    _add_moves(state, moves.append)
    return moves


def _add_moves(state: GameState, add: Callable[[Move], object]) -> tuple[list[int], list[int]]:
    """Add every legal move in order; return the columns that are free and those empty."""
    columns = state.columns
    manual = state.rules.manual_flip
    showing: list[list[int] | None] = [None] * 32  # by rank: columns with that top card
    free: list[int] = []  # columns that count as empty for building
    hollow: list[int] = []  # columns with no cards at all
    for col in range(COLUMNS):
        column = columns[col]
        rank = column.top_rank
        if rank:
            same = showing[rank]
            if same is None:
                showing[rank] = [col]
            else:
                same.append(col)
        elif column.down:
            if manual:
                free.append(col)
        else:
            free.append(col)
            hollow.append(col)
    # A target is never the source: it shows a higher rank than the source's top card,
    # or it is free, which a source (showing a face-up card) is not.
    if free:
        for src in range(COLUMNS):
            column = columns[src]
            base = column.top_rank
            if not base:
                continue
            table = _MOVES[src]
            for count in range(1, column.movable + 1):
                whole = count == len(column.up) and not column.down
                targets = [dst for dst in free if not (whole and dst in hollow)]
                built_on = showing[base + count]
                if built_on:
                    targets += built_on
                    targets.sort()
                for dst in targets:
                    add(table[dst][count])
        return free, hollow
    for src in range(COLUMNS):  # the usual case, no free column: only builds on cards
        column = columns[src]
        base = column.top_rank
        if not base:
            continue
        table = _MOVES[src]
        movable = column.movable
        if movable == 1:  # most columns: one card moves, onto the next rank up
            built_on = showing[base + 1]
            if built_on:
                for dst in built_on:
                    add(table[dst][1])
            continue
        for count in range(1, movable + 1):
            built_on = showing[base + count]
            if built_on:
                for dst in built_on:
                    add(table[dst][count])
    return free, hollow


def legal_actions(state: GameState) -> list[Action]:
    actions: list[Action] = []
    free, hollow = _add_moves(state, actions.append)
    rules = state.rules
    if rules.manual_flip:  # free but not empty: face-down cards only, the top one to flip
        for col in free:
            if col not in hollow:
                actions.append(_FLIPS[col])
    if state.stock and (rules.deal_over_empty or not hollow):
        actions.append(_DEAL)
    if state.history:
        actions.append(_UNDO)
    return actions

