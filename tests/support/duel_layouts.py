"""A near-finished 1-suit duel layout and the actions that win it (19 actions).

Six runs are already removed; 26 spades are left: face-down cards under three columns and
one deal of ten in the stock, so that hidden cards and the stock exist until the end.
The winning line: free the face-down cards (move, flip, build), deal, build the last run.
"""

from typing import Any

RANKS = "A23456789TJQK"


def _s(ranks: str) -> list[str]:
    return [rank + "s" for rank in ranks]


def near_finished_layout() -> dict[str, Any]:
    tableau: list[dict[str, list[str]]] = [{"down": [], "up": []} for _ in range(10)]
    tableau[0]["up"] = _s("KQJT987654")  # run 1 down to the four
    tableau[1] = {"down": _s("3"), "up": _s("K")}  # run 2's king over run 1's three
    tableau[2] = {"down": _s("2"), "up": _s("Q")}
    tableau[3] = {"down": _s("A"), "up": _s("J")}
    # stock[i] lands on column i: 9…A on columns 0-8, the ten onto the jack on column 9.
    stock = _s("98765432A") + _s("T")
    return {"tableau": tableau, "stock": stock, "removed": ["s"] * 6}


RULES = {"preset": "duel", "suits": 1}

WINNING_LINE: list[dict[str, Any]] = [
    {"op": "move", "from": 1, "to": 9, "count": 1},
    {"op": "flip", "col": 1},
    {"op": "move", "from": 1, "to": 0, "count": 1},
    {"op": "move", "from": 2, "to": 9, "count": 1},
    {"op": "flip", "col": 2},
    {"op": "move", "from": 2, "to": 0, "count": 1},
    {"op": "move", "from": 3, "to": 9, "count": 1},
    {"op": "flip", "col": 3},
    {"op": "move", "from": 3, "to": 0, "count": 1},  # run 1 completes
    {"op": "deal"},
    *({"op": "move", "from": col, "to": 9, "count": 1} for col in range(9)),  # run 2: won
]
