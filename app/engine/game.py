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
    _check_column(move.src, "source")
    _check_column(move.dst, "target")
    if move.src == move.dst:
        raise errors.SameColumn(f"source and target are both column {move.src}")
    source = state.columns[move.src]
    count = move.count
    if count < 1 or count > len(source):
        raise errors.BadCount(f"column {move.src} holds {len(source)} cards; cannot move {count}")
    if count > movable_run_length(source):
        raise errors.NotMovable(
            f"the top {count} cards of column {move.src} are not a face-up run of one suit"
        )
    target = state.columns[move.dst]
    bottom = source.up[-count]
    if target.up:
        if (target.up[-1] & 15) != (bottom & 15) + 1:
            raise errors.BadTarget(
                f"a card goes only onto a card one rank higher (column {move.dst})"
            )
    elif target.down and not state.rules.manual_flip:
        raise errors.BadTarget(f"column {move.dst} has no face-up card to build on")
    elif not target.down and count == len(source):
        raise errors.Pointless(
            f"moving all of column {move.src} into the empty column {move.dst} changes nothing"
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
    removed: list[int],
    events: list[Event],
    final: bool,
) -> tuple[GameState, tuple[Event, ...]]:
    if len(removed) >= RUNS_TO_WIN > len(state.removed):
        events.append(GameWon())
    undoable = state.rules.undo == "all" or not final
    return (
        GameState(
            state.rules,
            tuple(columns),
            stock,
            tuple(removed),
            state.actions + 1,
            state if undoable else None,
            state.barrier if undoable else True,
        ),
        tuple(events),
    )


def _do_move(state: GameState, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    columns = list(state.columns)
    source = columns[move.src]
    target = columns[move.dst]
    run = source.up[-move.count :]
    columns[move.src] = Column(source.down, source.up[: -move.count])
    columns[move.dst] = Column(target.down, target.up + run)
    events: list[Event] = [
        CardsMoved(move.src, move.dst, run, target.up[-1] if target.up else None)
    ]
    removed = list(state.removed)
    final = _settle(state, columns, move.dst, removed, events)
    final = _settle(state, columns, move.src, removed, events) or final
    return _next(state, columns, state.stock, removed, events, final)


def _do_deal(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    row = state.stock[:COLUMNS]
    columns = list(state.columns)
    for col, card in enumerate(row):
        columns[col] = Column(columns[col].down, (*columns[col].up, card))
    events: list[Event] = [RowDealt(row)]
    removed = list(state.removed)
    for col in range(len(row)):
        _settle(state, columns, col, removed, events)
    return _next(state, columns, state.stock[COLUMNS:], removed, events, final=True)


def _do_flip(state: GameState, flip: Flip) -> tuple[GameState, tuple[Event, ...]]:
    columns = list(state.columns)
    column = columns[flip.col]
    columns[flip.col] = Column(column.down[:-1], (column.down[-1],))
    events: list[Event] = [CardFlipped(flip.col, column.down[-1], automatic=False)]
    return _next(state, columns, state.stock, list(state.removed), events, final=True)


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


def legal_moves(state: GameState) -> list[Move]:
    moves: list[Move] = []
    columns = state.columns
    manual = state.rules.manual_flip
    for src, source in enumerate(columns):
        run = movable_run_length(source)
        for count in range(1, run + 1):
            rank = source.up[-count] & 15
            whole = count == len(source)
            for dst, target in enumerate(columns):
                if dst == src:
                    continue
                if target.up:
                    if (target.up[-1] & 15) == rank + 1:
                        moves.append(Move(src, dst, count))
                elif target.down:
                    if manual:
                        moves.append(Move(src, dst, count))
                elif not whole:
                    moves.append(Move(src, dst, count))
    return moves


def legal_actions(state: GameState) -> list[Action]:
    actions: list[Action] = list(legal_moves(state))
    if state.rules.manual_flip:
        actions.extend(
            Flip(col) for col, column in enumerate(state.columns)
            if column.down and not column.up
        )
    if is_legal(state, Deal()):
        actions.append(Deal())
    if state.previous is not None:
        actions.append(Undo())
    return actions


def is_stuck(state: GameState) -> bool:
    """No action but undo is left: no move, flip or deal."""
    return not any(not isinstance(action, Undo) for action in legal_actions(state))
