"""Deal numbers: the ones players pick (1–999,999, as on CetinsGame), the ones duels draw,
and the ones a solo game accepts (any of both).

The generator (:mod:`app.engine.deal`) takes any whole number from 1 up. The same number
with the same options is the same deal for everyone, forever.

- **Picked** (and a solo game's random deal): 1–999,999, six digits to type.
- **Duels** draw from 1,000,000 to 2**48 − 1, disjoint from the picked range and far too
  many to deal ahead: with only 999,999 numbers per suit count a cheater deals them all
  in minutes and recognises a duel's deal from its ten face-up opening cards, learning
  every hidden card of a game in progress (docs/api.md, "Deal numbers of duels").
- **Playable**: a solo game starts on any number 1 to 2**48 − 1, so that a duel's "play
  this deal" link (its number, revealed once the match is over) deals the same cards.
"""

import secrets
from collections.abc import Callable

from app.engine.deal import DealNumberError

DEAL_NUMBER_MIN = 1
DEAL_NUMBER_MAX = 999_999
"""The range a player picks a number from (the form's, the daily deal's)."""
DUEL_NUMBER_MIN = 1_000_000
DUEL_NUMBER_MAX = 2**48 - 1
"""Duel deals: 281,474,976,710,655 numbers from just past the picked range."""
PLAYABLE_NUMBER_MAX = DUEL_NUMBER_MAX
"""A solo game accepts every number 1 up to this: picked ones and duels' link numbers."""


class DealNumberRangeError(DealNumberError):
    """A whole number outside the 1 to 2**48 − 1 that a solo game may start on."""


def check_deal_number(number: object) -> int:
    """``number`` itself when a solo game may start on it (1 to 2**48 − 1); otherwise raise.

    Anything but an ``int`` (``True``, ``"12"``, ``12.0``) raises :class:`DealNumberError`;
    a whole number outside the range raises its subclass :class:`DealNumberRangeError`.
    """
    if type(number) is not int:
        raise DealNumberError(f"a deal number is a whole number, not {number!r}")
    return _within(number, DEAL_NUMBER_MIN, PLAYABLE_NUMBER_MAX)


def random_deal_number(below: Callable[[int], int] = secrets.randbelow) -> int:
    """A deal number drawn uniformly from the picked range 1–999,999 (a solo random deal).

    ``below(n)`` returns a whole number in ``[0, n)``: by default the operating system's
    randomness, so nobody can predict the next "random deal"; tests pass their own.
    """
    return _drawn(below, DEAL_NUMBER_MIN, DEAL_NUMBER_MAX)


def random_duel_number(below: Callable[[int], int] = secrets.randbelow) -> int:
    """A duel's deal number, drawn uniformly from 1,000,000 to 2**48 − 1 (``below`` as in
    :func:`random_deal_number`): never one a player picks, never one dealt ahead."""
    return _drawn(below, DUEL_NUMBER_MIN, DUEL_NUMBER_MAX)


def _drawn(below: Callable[[int], int], low: int, high: int) -> int:
    return _within(below(high - low + 1) + low, low, high)  # checked: even a bad source


def _within(number: int, low: int, high: int) -> int:
    if not low <= number <= high:
        raise DealNumberRangeError(f"deal numbers go from {low:,} to {high:,}, not {number:,}")
    return number
