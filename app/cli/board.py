"""A readable text board of a position, for ``spider show`` and for people reading logs.

Columns are printed side by side, top of the table first: ``--`` is a face-down card,
face-up cards use the record notation (``Ks``, ``Th``).
"""

from app.engine.cards import SUITS, card_name
from app.engine.state import GameState

FACE_DOWN = "--"
CELL = 4


def board_lines(state: GameState) -> list[str]:
    rules = state.rules
    removed = " ".join(SUITS[suit] for suit in state.removed) or "none"
    lines = [
        f"rules: {rules.preset}, {rules.suits} suit{'s' if rules.suits > 1 else ''}, "
        f"flip {rules.flip}, undo {rules.undo}, scoring {rules.scoring}",
        f"stock: {len(state.stock)} cards ({state.deals_left} "
        f"deal{'' if state.deals_left == 1 else 's'})   "
        f"removed runs: {len(state.removed)} ({removed})   status: {state.status}",
        "",
        "".join(f"{index:>{CELL}}" for index in range(len(state.columns))),
    ]
    piles = [
        [FACE_DOWN] * len(column.down) + [card_name(card) for card in column.up]
        for column in state.columns
    ]
    height = max((len(pile) for pile in piles), default=0)
    for row in range(height):
        cells = (pile[row] if row < len(pile) else "" for pile in piles)
        lines.append("".join(f"{cell:>{CELL}}" for cell in cells).rstrip())
    if height == 0:
        lines.append("(the tableau is empty)")
    return lines


def render_board(state: GameState) -> str:
    return "\n".join(board_lines(state)) + "\n"
