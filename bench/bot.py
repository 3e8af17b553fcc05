"""A player bot that picks legal-looking actions from the public view alone.

It sees only what a client sees (face-up cards, counts), so it exercises exactly the
protocol a browser uses. It does not try to win: it keeps the server validating,
scoring and persisting real actions. The server is the judge; a rejected guess is
answered with a resync like any other.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

RANKS = "A23456789TJQK"
RANK = {name: value for value, name in enumerate(RANKS, start=1)}  # by a card's first letter
Action = dict[str, Any]
EMPTY, ANY = -1, -2  # legal_moves' targets that are not a rank


def as_read(view: Any) -> dict[str, Any]:
    """A view as a client reads it, a JSON object: a frame's typed view (a struct of
    app/wire/game.py, when the bot plays in the server's process) as its JSON would be."""
    if isinstance(view, dict):
        return view
    read: dict[str, Any] = msgspec.to_builtins(view)
    return read


def rank(name: str) -> int:
    return RANK[name[0]]


def movable_length(up: list[str]) -> int:
    """How many cards on top of a column form a same-suit descending run."""
    if not up:
        return 0
    length = 1
    while length < len(up):
        upper, lower = up[-length - 1], up[-length]
        if upper[1] != lower[1] or RANK[upper[0]] != RANK[lower[0]] + 1:
            break
        length += 1
    return length


def legal_moves(view: dict[str, Any], *, manual_flip: bool) -> list[Action]:
    """Every move the view allows, by source column, count, then target column.

    The load client runs this once per action on the same cores as the server it loads:
    each column's top rank is read once, not once per (source, target) pair (that was
    ~90 µs of the client's ~170 µs of CPU per action flat out; now ~15)."""
    columns = view["columns"]
    # Per target: the rank a card needs to go on it (0 on an ace: none), EMPTY (any card
    # but a whole column, which is pointless to move there), ANY or None (nothing).
    wants: list[int | None] = []
    for target in columns:
        up = target["up"]
        if up:
            wants.append(RANK[up[-1][0]] - 1)
        elif target["down"] == 0:
            wants.append(EMPTY)
        else:  # only face-down cards: empty for building under manual flips (duel rules)
            wants.append(ANY if manual_flip else None)
    # The targets of a card, in column order, by its rank and whether it takes the whole
    # column along: worked out once per view for each that occurs.
    targets: dict[tuple[int, bool], list[int]] = {}
    ranked = sorted({want for want in wants if want is not None and want > 0})
    anywhere = EMPTY in wants or ANY in wants  # then a card of any rank has a target
    moves: list[Action] = []
    for src, column in enumerate(columns):
        up = column["up"]
        length = movable_length(up)
        if not length:
            continue
        top = RANK[up[-1][0]]  # the run descends by one: up[-count] is top + count - 1
        counts = (range(1, length + 1) if anywhere
                  else [want - top + 1 for want in ranked if top <= want < top + length])
        for count in counts:
            bottom = top + count - 1
            whole_column = count == len(up) and column["down"] == 0
            dsts = targets.get((bottom, whole_column))
            if dsts is None:
                dsts = targets[bottom, whole_column] = [
                    dst for dst, want in enumerate(wants)
                    if want in (bottom, ANY) or (want == EMPTY and not whole_column)]
            moves.extend({"op": "move", "from": src, "to": dst, "count": count}
                         for dst in dsts if dst != src)
    return moves


def choose(view: dict[str, Any], *, manual_flip: bool, rng: random.Random) -> Action | None:
    """A flip if one is due, else a random move (same-suit builds first), else a deal."""
    columns = view["columns"]
    if manual_flip:
        for col, column in enumerate(columns):
            if column["down"] and not column["up"]:
                return {"op": "flip", "col": col}
    moves = legal_moves(view, manual_flip=manual_flip)
    if moves:
        in_suit = [m for m in moves if _lands_in_suit(columns, m)]
        return rng.choice(in_suit or moves)
    if view["stock"]:
        return {"op": "deal"}
    if view.get("can_undo"):
        return {"op": "undo"}
    return None


def _lands_in_suit(columns: list[dict[str, Any]], move: Action) -> bool:
    target = columns[move["to"]]["up"]
    moved = columns[move["from"]]["up"][-move["count"]]
    return bool(target) and target[-1][1] == moved[1]
