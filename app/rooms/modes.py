"""What differs between a duel and a solo or daily game, as data of one match.

A solo or daily game is a match with one seat on the same core as a duel
(``app/rooms/duel_core.py``): the same step for every action, the same seq and duplicate
rule, the same scoring fold. What the modes do differently is a :class:`Mode` value on the
match (``MatchState.mode``), never a second code path in the core:

- ``seq_rule``: how repeats are answered (``app/rooms/seat_rule.py``: ``DUEL`` compares
  the action and answers from the log, ``SOLO`` answers from its cache only);
- ``may_finish``: the player may end the game with "finish" (a duel's "Terminer"); a solo
  game is left by abandoning it.

Whether a clock ends the game is the seat's, not the mode's: a duel seat's time limit, a
solo or daily seat's :data:`UNTIMED` (never overdue; no time left to show).
"""

from __future__ import annotations

import math

import msgspec

from app.rooms.seat_rule import DUEL, SOLO, SeqRule

UNTIMED = math.inf
"""The time limit of a seat whose clock never ends its game (``SeatState.time_limit_s``)."""


class Mode(msgspec.Struct, frozen=True, gc=False):
    name: str
    seq_rule: SeqRule
    may_finish: bool


DUEL_MODE = Mode("duel", DUEL, may_finish=True)
SOLO_MODE = Mode("solo", SOLO, may_finish=False)
