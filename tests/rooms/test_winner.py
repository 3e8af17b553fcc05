"""The winner rule, written once for both stores: score, then time in whole ms, else a draw."""

from hypothesis import given
from hypothesis import strategies as st

from app.rooms.winner import PlayerOutcome, decide_winner, match_score


def outcome(player_id: int, score: int, elapsed_s: float) -> PlayerOutcome:
    return PlayerOutcome(player_id, score, elapsed_s, "finished")


def test_higher_score_wins_whatever_the_time() -> None:
    assert decide_winner([outcome(1, 10, 500.0), outcome(2, 9, 100.0)]) == 1
    assert decide_winner([outcome(1, -3, 100.0), outcome(2, 0, 900.0)]) == 2


def test_equal_scores_go_to_the_shorter_time_then_draw() -> None:
    assert decide_winner([outcome(1, 10, 500.0), outcome(2, 10, 100.0)]) == 2
    assert decide_winner([outcome(1, 10, 100.0), outcome(2, 10, 100.0)]) is None


def test_times_count_in_whole_milliseconds_as_the_stores_keep_them() -> None:
    # 12.3441 s and 12.3439 s are both 12344 ms on a game row: a draw for every store.
    assert decide_winner([outcome(1, 5, 12.3441), outcome(2, 5, 12.3439)]) is None
    assert decide_winner([outcome(1, 5, 12.3446), outcome(2, 5, 12.3439)]) == 2


def test_one_game_or_none() -> None:
    assert decide_winner([outcome(7, 0, 1.0)]) == 7
    assert decide_winner([]) is None


@given(st.integers(-500, 5000), st.integers(-500, 5000),
       st.integers(0, 900_000), st.integers(0, 900_000))
def test_the_seat_order_does_not_matter(a: int, b: int, a_ms: int, b_ms: int) -> None:
    first, second = outcome(1, a, a_ms / 1000), outcome(2, b, b_ms / 1000)
    winner = decide_winner([first, second])
    assert winner == decide_winner([second, first])
    expected = None if (a, a_ms) == (b, b_ms) else (1 if (-a, a_ms) < (-b, b_ms) else 2)
    assert winner == expected
    assert match_score(winner, 1) + match_score(winner, 2) == 1.0


def test_match_score_counts_won_draw_lost() -> None:
    assert (match_score(3, 3), match_score(None, 3), match_score(4, 3)) == (1.0, 0.5, 0.0)


def test_a_player_who_did_not_start_loses_to_one_who_did_whatever_the_score() -> None:
    started = PlayerOutcome(1, -5, 30.0, "finished")  # a few moves cost points
    no_show = PlayerOutcome(2, 0, 600.0, "did_not_start")
    assert decide_winner([started, no_show]) == 1
    assert decide_winner([no_show, started]) == 1
    assert decide_winner([no_show, PlayerOutcome(3, 0, 600.0, "did_not_start")]) is None
