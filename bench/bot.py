"""A player bot that picks legal-looking actions from the public view alone.

It sees only what a client sees (face-up cards, counts), so it exercises exactly the
protocol a browser uses. It does not try to win: it keeps the server validating,
scoring and persisting real actions. The server is the judge; a rejected guess is
answered with a resync like any other.
"""

from __future__ import annotations

import random
from typing import Any

RANKS = "A23456789TJQK"
Action = dict[str, Any]


def rank(name: str) -> int:
    return RANKS.index(name[0]) + 1


def movable_length(up: list[str]) -> int:
    """How many cards on top of a column form a same-suit descending run."""
    if not up:
        return 0
    length = 1
    while length < len(up):
        upper, lower = up[-length - 1], up[-length]
        if upper[1] != lower[1] or rank(upper) != rank(lower) + 1:
            break
        length += 1
    return length


def legal_moves(view: dict[str, Any], *, manual_flip: bool) -> list[Action]:
    columns = view["columns"]
    moves: list[Action] = []
    for src, column in enumerate(columns):
        up = column["up"]
        for count in range(1, movable_length(up) + 1):
            bottom = up[-count]
            whole_column = count == len(up) and column["down"] == 0
            for dst, target in enumerate(columns):
                if dst == src:
                    continue
                if target["up"]:
                    if rank(target["up"][-1]) == rank(bottom) + 1:
                        moves.append({"op": "move", "from": src, "to": dst, "count": count})
                elif target["down"] == 0:
                    if not whole_column:  # a whole column into an empty one is pointless
                        moves.append({"op": "move", "from": src, "to": dst, "count": count})
                elif manual_flip:  # only face-down cards: empty for building (duel rules)
                    moves.append({"op": "move", "from": src, "to": dst, "count": count})
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
