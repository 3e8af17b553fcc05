"""Solo options as a small value, and the starting position a deal number gives with them.

Solo play follows the rule book's ``classic`` preset (cards turn face up by themselves,
unlimited undo, no deal over an empty column), or ``relaxed`` with CetinsGame's "Règle
souple" (deals over empty columns). The score shown during play is the presets'
``windows`` scheme; points (:mod:`app.rewards.points`) are only for a win.

"Solvable only" (the default) deals the cards of the number's solvable deal (mapping
version 1, :mod:`app.engine.solver.solvable`); off, the generator's deal of that very
number, which may have no solution. Either way the cards come from one generator deal
(``source``), so a solo game's record is ``{"deal": {"number": source}}`` and replays
with ``spider replay``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from app.engine.actions import Action
from app.engine.daily import DAILY_SUITS, daily_deal, daily_deal_number, daily_rules
from app.engine.deal import deal
from app.engine.deal_numbers import check_deal_number
from app.engine.record import Record
from app.engine.rules import PresetName, Rules, preset
from app.engine.solver.difficulty import Difficulty
from app.engine.solver.solvable import solvable_deal
from app.engine.state import GameState

SUIT_COUNTS = (1, 2, 4)
_FIELDS = {"suits", "solvable_only", "relaxed"}


class SoloOptionsError(ValueError):
    """Options that name an unknown field or give one a value it cannot take."""


@dataclass(frozen=True, slots=True)
class SoloOptions:
    """What a player chooses for a solo game besides the deal number."""

    suits: int
    solvable_only: bool = True
    relaxed: bool = False

    def __post_init__(self) -> None:
        if type(self.suits) is not int or self.suits not in SUIT_COUNTS:
            raise SoloOptionsError(f"suits must be 1, 2 or 4, not {self.suits!r}")
        for name in ("solvable_only", "relaxed"):
            if type(getattr(self, name)) is not bool:
                raise SoloOptionsError(f"{name} must be true or false, not {getattr(self, name)!r}")

    @property
    def preset(self) -> PresetName:
        return "relaxed" if self.relaxed else "classic"

    def rules(self) -> Rules:
        return preset(self.preset, self.suits)

    def to_json(self) -> dict[str, Any]:
        return {"suits": self.suits, "solvable_only": self.solvable_only, "relaxed": self.relaxed}


def options_from_json(data: object) -> SoloOptions:
    """Options from their JSON form; ``solvable_only`` and ``relaxed`` may be left out."""
    if not isinstance(data, dict):
        raise SoloOptionsError("solo options must be an object with 'suits'")
    unknown = sorted(map(str, set(data) - _FIELDS))
    if unknown:
        raise SoloOptionsError(f"unknown solo option(s): {', '.join(unknown)}")
    if "suits" not in data:
        raise SoloOptionsError("solo options need 'suits' (1, 2 or 4)")
    return SoloOptions(**data)


DAILY_OPTIONS = SoloOptions(suits=DAILY_SUITS)
"""The daily deal's options: 2 suits, solvable only, classic rules."""


@dataclass(frozen=True, slots=True)
class SoloStart:
    """Where a solo game starts: the number the player sees, and where its cards come from."""

    number: int
    """The deal number picked or drawn (1–999,999), or a duel's from its "play this deal"
    link (up to 2**48 − 1), shown on the table."""
    options: SoloOptions
    source: int
    """The generator deal the cards come from (``number`` itself unless solvable only)."""
    difficulty: Difficulty | None
    """The solver's rating of a solvable deal; ``None`` for a random one (not rated)."""
    state: GameState

    def record(self, actions: Iterable[Action] = ()) -> Record:
        """The rule book's record of a game from here: the source deal and ``actions``."""
        return Record(self.state.rules, self.state, tuple(actions), deal_number=self.source)


def solo_start(number: int, options: SoloOptions) -> SoloStart:
    """The start of solo deal ``number`` with ``options``.

    With "solvable only" the solver may run for a moment the first time a number is
    asked for (cached afterwards): call it off the event loop.
    """
    check_deal_number(number)
    rules = options.rules()
    if not options.solvable_only:
        return SoloStart(number, options, number, None, deal(number, rules))
    found = solvable_deal(number, options.suits)
    return SoloStart(number, options, found.source, found.difficulty, deal(found.source, rules))


def daily_game(day: date) -> SoloStart:
    """The start of ``day``'s daily deal (:mod:`app.engine.daily`), as a solo start."""
    found = daily_deal(day)
    return SoloStart(
        daily_deal_number(day), DAILY_OPTIONS, found.source, found.difficulty,
        deal(found.source, daily_rules()),
    )
