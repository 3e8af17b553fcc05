"""The three scoring schemes, each rule of the rule book checked on a small position."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.actions import Action, Deal, Flip, Move, Undo
from app.engine.game import legal_actions
from app.engine.layout import build_state, sketch_state
from app.engine.rules import preset, with_options
from app.engine.state import GameState
from app.scoring.play import ScoredGame
from app.scoring.schemes import aisleriot_points, windows_points
from tests.engine.strategies_engine import start_states

DUEL = preset("duel", 4)
CLASSIC = preset("classic", 4)
ROW = "2s 3s 4s 5s 6s 7s 8s 9s Ts Jh"


def run(suit: str, top: int = 13, bottom: int = 1) -> str:
    return " ".join("A23456789TJQK"[rank - 1] + suit for rank in range(top, bottom - 1, -1))


def points(start: GameState, actions: list[Action]) -> list[int]:
    game = ScoredGame.start(start)
    out = [game.points]
    for action in actions:
        game = game.play(action)[0]
        out.append(game.points)
    return out


def test_duel_every_action_costs_one() -> None:
    start = sketch_state(DUEL, ["9h", "Ts", "", "Kd"] + ["Kc"] * 6, stock=ROW)
    assert points(start, [Move(0, 1, 1), Move(1, 2, 1), Undo(), Deal()]) == [0, -1, -2, -3, -4]


def test_duel_plus_two_per_card_turned_up_by_flip_and_automatically() -> None:
    start = sketch_state(DUEL, ["3c / 9h", "Ts"])
    assert points(start, [Move(0, 1, 1), Flip(0)]) == [0, -1, 0]
    auto = sketch_state(with_options(DUEL, flip="auto"), ["3c / 9h", "Ts"])
    assert points(auto, [Move(0, 1, 1)]) == [0, 1]


def test_duel_in_suit_bonus_per_card_of_the_run_once_per_physical_card() -> None:
    start = sketch_state(DUEL, ["9h 8h 7h", "Th", "Tc", "Td"])
    # 3 cards land in suit: +6 -1; back onto clubs: -1; again onto hearts: no new bonus
    assert points(start, [Move(0, 1, 3), Move(1, 2, 3), Move(2, 1, 3)]) == [0, 5, 4, 3]


def test_duel_no_bonus_off_suit_or_into_an_empty_column() -> None:
    start = sketch_state(DUEL, ["9h 8h", "Tc", "", "3c 4c /"])
    assert points(start, [Move(0, 1, 2), Move(1, 2, 2), Move(2, 3, 2)]) == [0, -1, -2, -3]


def test_duel_run_completed_and_won() -> None:
    start = sketch_state(DUEL, ["Qd / " + run("h", 13, 2), "Ah"], removed="s s h h s s h")
    # +2 in suit for Ah, +50 run, +100 won, -1 action
    assert points(start, [Move(1, 0, 1)]) == [0, 151]


def test_duel_undo_takes_back_what_the_move_earned_and_costs_one_more() -> None:
    generous = with_options(DUEL, undo="all")
    start = sketch_state(generous, ["Qd / " + run("h", 13, 2), "Ah"])
    scores = points(start, [Move(1, 0, 1), Undo(), Move(1, 0, 1)])
    assert scores == [0, 51, -2, 49]  # the redo earns the in-suit bonus again


def test_windows_500_less_actions_plus_100_per_run_and_never_below_0() -> None:
    start = sketch_state(CLASSIC, ["Qd / " + run("h", 13, 2), "Ah", "9h", "Ts"])
    assert points(start, [Move(2, 3, 1), Undo(), Move(1, 0, 1)]) == [500, 499, 498, 597]
    assert windows_points(start) == 500
    later = start
    for _ in range(300):
        later = ScoredGame.start(later).play(Move(2, 3, 1))[0].state
        later = ScoredGame.start(later).play(Move(3, 2, 1))[0].state
    assert later.actions == 600 and windows_points(later) == 0


def test_windows_counts_runs_removed_in_the_starting_layout() -> None:
    start = sketch_state(CLASSIC, ["9h"], removed="s h")
    assert windows_points(start) == 700


def test_aisleriot_12_per_run_plus_length_less_one_of_each_same_suit_run() -> None:
    start = sketch_state(
        preset("classic", 4),
        ["Kc / 9h 8h 7h 6s 5s", "Qh Jh / Th", "Ac", "4d 3d 2d Ad"],
        removed="c",
    )
    # 12 + (9h8h7h: 2) + (6s5s: 1) + (Th: 0) + (Ac: 0) + (4d..Ad: 3); face-down cards don't count
    assert aisleriot_points(start) == 18
    assert ScoredGame.start(sketch_state(with_options(CLASSIC, scoring="aisleriot"), ["9h"])
                            ).points == 0


def test_aisleriot_maximum_is_96() -> None:
    start = sketch_state(CLASSIC, [], removed="s h d c s h d c")
    assert aisleriot_points(start) == 96


def maximal_runs(up: tuple[int, ...]) -> list[int]:
    """Lengths of the maximal face-up same-suit descending runs of a column, bottom up."""
    lengths: list[int] = []
    for index, card in enumerate(up):
        if index and (card & 63) + 1 == (up[index - 1] & 63):
            lengths[-1] += 1
        else:
            lengths.append(1)
    return lengths


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), start_states())
def test_windows_and_aisleriot_follow_the_position(data: st.DataObject, start: GameState) -> None:
    games = {
        name: ScoredGame.start(
            build_state(
                with_options(start.rules, scoring=name),
                [([c & 63 for c in col.down], [c & 63 for c in col.up]) for col in start.columns],
                [c & 63 for c in start.stock],
                list(start.removed),
            )
        )
        for name in ("windows", "aisleriot")
    }
    for _ in range(40):
        legal = legal_actions(games["windows"].state)
        if not legal:
            break
        action = data.draw(st.sampled_from(legal))
        games = {name: game.play(action)[0] for name, game in games.items()}
        state = games["windows"].state
        assert games["windows"].points == max(0, 500 - state.actions + 100 * len(state.removed))
        expected = 12 * len(state.removed) + sum(
            length - 1 for column in state.columns for length in maximal_runs(column.up)
        )
        assert games["aisleriot"].points == expected
        assert 0 <= expected <= 96


def test_a_layout_won_from_the_start_earns_no_win_bonus() -> None:
    start = sketch_state(DUEL, ["9h", "Ts"], removed="s h d c s h d c")
    assert start.won and start.status == "won"
    game = ScoredGame.start(start)
    after, events = game.play(Move(0, 1, 1))
    assert after.points == -1 and not any(type(e).__name__ == "GameWon" for e in events)
