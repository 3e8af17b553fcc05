"""The deal numbers players pick: 1–999,999, as on CetinsGame, or one drawn at random.

The generator (:mod:`app.engine.deal`) takes any whole number from 1 up; a solo game
offers six digits, the number shown on the table and in "play this deal" links. The same
number with the same options is the same deal for everyone, forever.
"""

import secrets
from collections.abc import Callable

from app.engine.deal import DealNumberError

DEAL_NUMBER_MIN = 1
DEAL_NUMBER_MAX = 999_999


class DealNumberRangeError(DealNumberError):
    """A whole number outside the 1–999,999 that a player may pick."""


def check_deal_number(number: object) -> int:
    """``number`` itself when it is a deal number a player may pick; otherwise raise.

    Anything but an ``int`` (``True``, ``"12"``, ``12.0``) raises :class:`DealNumberError`;
    a whole number outside 1–999,999 raises its subclass :class:`DealNumberRangeError`.
    """
    if type(number) is not int:
        raise DealNumberError(f"a deal number is a whole number, not {number!r}")
    if not DEAL_NUMBER_MIN <= number <= DEAL_NUMBER_MAX:
        raise DealNumberRangeError(
            f"deal numbers go from {DEAL_NUMBER_MIN} to {DEAL_NUMBER_MAX:,}, not {number:,}"
        )
    return number


def random_deal_number(below: Callable[[int], int] = secrets.randbelow) -> int:
    """A deal number drawn uniformly from 1–999,999.

    ``below(n)`` returns a whole number in ``[0, n)``: by default the operating system's
    randomness, so nobody can predict the next "random deal"; tests pass their own.
    """
    return check_deal_number(below(DEAL_NUMBER_MAX - DEAL_NUMBER_MIN + 1) + DEAL_NUMBER_MIN)
