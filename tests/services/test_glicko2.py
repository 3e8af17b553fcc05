"""Glicko-2 against the worked example in Glickman's paper, and its basic properties."""

import pytest

from app.services.glicko2 import Glicko, RatedGame, rate, rate_pair


def test_the_papers_worked_example() -> None:
    player = Glicko(1500, 200, 0.06)
    outcomes = [
        RatedGame(Glicko(1400, 30), 1.0),
        RatedGame(Glicko(1550, 100), 0.0),
        RatedGame(Glicko(1700, 300), 0.0),
    ]
    after = rate(player, outcomes)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_win_raises_the_winner_and_lowers_the_loser_symmetrically() -> None:
    winner, loser = rate_pair(Glicko(), Glicko(), 1.0)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd < 350 and loser.rd < 350


def test_a_draw_between_equals_changes_no_rating() -> None:
    first, second = rate_pair(Glicko(1600, 80), Glicko(1600, 80), 0.5)
    assert first.rating == pytest.approx(1600)
    assert second.rating == pytest.approx(1600)


def test_beating_a_stronger_player_earns_more() -> None:
    weak_beats_strong, _ = rate_pair(Glicko(1500, 100), Glicko(1800, 100), 1.0)
    weak_beats_weaker, _ = rate_pair(Glicko(1500, 100), Glicko(1200, 100), 1.0)
    assert weak_beats_strong.rating - 1500 > weak_beats_weaker.rating - 1500


def test_no_games_widens_the_deviation_up_to_the_cap() -> None:
    assert rate(Glicko(1500, 100, 0.06), []).rd > 100
    assert rate(Glicko(1500, 350, 0.06), []).rd == 350
