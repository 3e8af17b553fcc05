"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), written from the paper.

Pure arithmetic, no I/O. One rating period per finished rated match: each player's
rating is updated from that single game against the opponent's pre-match rating.
"""

import math
from dataclasses import dataclass

SCALE = 173.7178  # 400 / ln(10): converts between the Glicko and Glicko-2 scales
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # constrains volatility change; the paper suggests 0.3 to 1.2
MAX_RD = 350.0
EPSILON = 1e-6


@dataclass(frozen=True)
class Glicko:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class RatedGame:
    """A game against ``opponent``: score 1 for a win, 0.5 for a draw, 0 for a loss."""

    opponent: Glicko
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) (the paper's iteration, unchanged)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, outcomes: list[RatedGame], *, tau: float = TAU) -> Glicko:
    """The player's rating after one rating period with these outcomes."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    if not outcomes:
        # Step 6 only: a period without games widens the deviation.
        phi_star = math.sqrt(phi * phi + player.volatility**2)
        return Glicko(player.rating, min(MAX_RD, phi_star * SCALE), player.volatility)
    v_inverse = 0.0
    gain = 0.0
    for outcome in outcomes:
        mu_j = (outcome.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = outcome.opponent.rd / SCALE
        expected = _expected(mu, mu_j, phi_j)
        v_inverse += _g(phi_j) ** 2 * expected * (1.0 - expected)
        gain += _g(phi_j) * (outcome.score - expected)
    v = 1.0 / v_inverse
    delta = v * gain
    sigma = _new_volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Glicko(new_mu * SCALE + DEFAULT_RATING, min(MAX_RD, new_phi * SCALE), sigma)


def rate_pair(first: Glicko, second: Glicko, first_score: float) -> tuple[Glicko, Glicko]:
    """Both players' new ratings after one game between them."""
    return (
        rate(first, [RatedGame(second, first_score)]),
        rate(second, [RatedGame(first, 1.0 - first_score)]),
    )
