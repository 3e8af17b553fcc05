"""Deals from the stock: empty columns per preset, completions, flips after completions."""

import pytest

from app.engine import errors
from app.engine.actions import Deal, Flip, Move
from app.engine.cards import FACE
from app.engine.events import CardFlipped, RowDealt, RunCompleted
from app.engine.game import apply, check, is_legal, legal_actions
from app.engine.layout import sketch_state
from app.engine.rules import Rules, preset, with_options

CLASSIC = preset("classic", 2)
RELAXED = preset("relaxed", 2)
DUEL = preset("duel", 2)
ROW = "2s 3s 4s 5s 6s 7s 8s 9s Ts Jh"
FULL = ["Kh / 9h"] * 10


def run(suit: str, top: int = 13, bottom: int = 1) -> str:
    return " ".join("A23456789TJQK"[rank - 1] + suit for rank in range(top, bottom - 1, -1))


def faces(cards: tuple[int, ...]) -> list[int]:
    return [card & FACE for card in cards]


def test_a_deal_puts_one_face_up_card_on_every_column_column_0_first() -> None:
    state = sketch_state(CLASSIC, FULL, stock=ROW + " " + ROW)
    after, events = apply(state, Deal())
    assert [faces(c.up)[-1] for c in after.columns] == faces(state.stock[:10])
    assert after.stock == state.stock[10:]
    assert all(len(c.down) == 1 for c in after.columns)
    assert events == (RowDealt(state.stock[:10]),)
    assert after.deals_left == 1


@pytest.mark.parametrize("rules", [CLASSIC, RELAXED, DUEL], ids=lambda r: r.preset)
def test_an_empty_stock_cannot_deal(rules: Rules) -> None:
    state = sketch_state(rules, FULL)
    with pytest.raises(errors.StockEmpty):
        check(state, Deal())
    assert Deal() not in legal_actions(state)


def test_classic_refuses_a_deal_with_an_empty_column() -> None:
    state = sketch_state(CLASSIC, FULL[:9], stock=ROW)
    with pytest.raises(errors.EmptyColumn) as caught:
        check(state, Deal())
    assert caught.value.code == "empty_column" and "column 9" in caught.value.message
    assert Deal() not in legal_actions(state)


@pytest.mark.parametrize("rules", [RELAXED, DUEL], ids=lambda r: r.preset)
def test_relaxed_and_duel_deal_over_empty_columns(rules: Rules) -> None:
    state = sketch_state(rules, FULL[:9], stock=ROW)
    after, _ = apply(state, Deal())
    assert faces(after.columns[9].up) == faces(state.stock[9:10])
    assert not after.columns[9].down


def test_the_deal_option_overrides_the_preset() -> None:
    strict_duel = with_options(DUEL, deal_over_empty=False)
    state = sketch_state(strict_duel, FULL[:9], stock=ROW)
    assert not is_legal(state, Deal())
    assert is_legal(sketch_state(with_options(CLASSIC, deal_over_empty=True), FULL[:9], stock=ROW),
                    Deal())


def test_a_face_down_only_column_is_not_empty_for_the_deal_rule() -> None:
    strict_duel = with_options(DUEL, deal_over_empty=False)
    state = sketch_state(strict_duel, [*FULL[:9], "4c 5c /"], stock=ROW)
    after, _ = apply(state, Deal())
    # the dealt card lies on the face-down cards, which stay down
    assert len(after.columns[9].down) == 2
    assert faces(after.columns[9].up) == faces(state.stock[9:10])
    assert not any(isinstance(action, Flip) and action.col == 9 for action in legal_actions(after))


def test_a_deal_that_completes_runs_removes_them_on_any_column() -> None:
    columns = [*FULL]
    columns[2] = "Kd / " + run("s", 13, 2)
    columns[7] = run("h", 13, 2)
    row = "2s 3s As 4s 5s 6s 7s Ah 9s Ts"
    state = sketch_state(CLASSIC, columns, stock=row)
    after, events = apply(state, Deal())
    completed = [e for e in events if isinstance(e, RunCompleted)]
    assert [(e.col, e.suit) for e in completed] == [(2, 0), (7, 1)]
    assert len(after.removed) == 2
    # column 2 had a face-down card: automatic flip after the completion
    assert CardFlipped(2, state.columns[2].down[0], automatic=True) in events
    assert faces(after.columns[2].up) == faces(state.columns[2].down)
    assert after.columns[7].empty
    assert sum(len(c) for c in after.columns) + 13 * 2 == sum(len(c) for c in state.columns) + 10


def test_under_manual_flip_a_completion_by_deal_leaves_the_card_down() -> None:
    columns = [*FULL]
    columns[2] = "Kd / " + run("s", 13, 2)
    state = sketch_state(DUEL, columns, stock="2s 3s As 4s 5s 6s 7s 8s 9s Ts")
    after, events = apply(state, Deal())
    assert not any(isinstance(e, CardFlipped) for e in events)
    assert after.columns[2].down and not after.columns[2].up
    assert Flip(2) in legal_actions(after)


def test_a_completed_run_may_sit_on_another_and_both_leave() -> None:
    # a king dealt onto an ace can stack runs; a layout may start that way
    state = sketch_state(CLASSIC, ["Qd / " + run("h") + " " + run("s", 13, 2), "As"])
    after, events = apply(state, Move(1, 0, 1))
    assert [(e.col, e.suit) for e in events if isinstance(e, RunCompleted)] == [(0, 0), (0, 1)]
    assert faces(after.columns[0].up) == faces(state.columns[0].down)


def test_a_move_uncovering_a_complete_run_completes_it() -> None:
    # a layout may hold a card dealt on top of a finished run; moving it away finishes it
    state = sketch_state(CLASSIC, [run("h") + " 5c", "6d"])
    after, events = apply(state, Move(0, 1, 1))
    assert [(e.col, e.suit) for e in events if isinstance(e, RunCompleted)] == [(0, 1)]
    assert after.columns[0].empty and len(after.removed) == 1
