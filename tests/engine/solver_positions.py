"""Small positions with known answers, shared by the solver tests."""

from app.engine.layout import sketch_state
from app.engine.rules import preset
from app.engine.state import GameState

ONE_SUIT = preset("classic", 1)
SEVEN_GONE = "s s s s s s s"


def run(top: int, bottom: int, suit: str = "s") -> str:
    return " ".join("A23456789TJQK"[rank - 1] + suit for rank in range(top, bottom - 1, -1))


def one_move_from_winning() -> GameState:
    return sketch_state(ONE_SUIT, [run(13, 7), run(6, 1)], removed=SEVEN_GONE)


def dead_position() -> GameState:
    """Ten columns, every top an odd rank, every other card face down: no move, no stock."""
    tops = ["As", "As", "3s", "3s", "5s", "5s", "7s", "7s", "9s", "9s"]
    downs = ["2s 4s", "2s 4s", "6s 6s", "8s 8s", "Ts Ts", "Js Js", "Qs Qs", "Ks Ks", "", ""]
    columns = [f"{down} / {top}" if down else top for down, top in zip(downs, tops, strict=True)]
    return sketch_state(ONE_SUIT, columns, removed="s s s s s s")
