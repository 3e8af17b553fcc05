"""The seq and duplicate rule of one seat, pure: duels and solo/daily games both ask it.

A numbered command (an action, a finish, a rescue, …) carries ``seq``: 1 + the number of
actions already applied (docs/protocol.md and docs/solo-and-daily.md, "Sequence
numbers"). :func:`judge` answers, as a value, what to do with it:

- ``seq`` = the last one answered → :data:`DUPLICATE`: the same answer again, marked
  ``"duplicate": true`` (a resend is never applied twice);
- the game is over → ``game_over``; never opened → ``not_opened``;
- ``seq`` < 1 → ``bad_seq`` (the protocol refuses it already: the rule stays total);
- ``seq`` ≤ the last applied → ``stale_seq``; above the next → ``bad_seq``;
- else (the next seq of a game in progress) → :data:`ACCEPT`: judge the action itself
  (an illegal action consumes no seq: the caller refuses it with the rule book's code).

Exactly one verdict per command; only :data:`ACCEPT` may change anything.

What differs between the modes is data, a :class:`SeqRule` (:data:`DUEL`, :data:`SOLO`):

- ``checks_action`` (duels): the last seq answered, with *another* action than the one
  answered, is ``seq_taken`` (two tabs of the player sent that seq at once: one was
  applied, this one is refused). Solo answers any repeat of its cached seq with the
  cached answer, whatever came with it.
- ``answers_from_log`` (duels): the last applied seq is a duplicate even when no answer
  is cached (a copy rebuilt from the log, another process's step), and so is a resent
  finish on a copy whose game the finish ended (a finish takes a seq but is not logged:
  a rebuilt copy knows it only by the end reason). Solo answers duplicates from its
  cache only (:class:`Answered`, one per kind of answer: an action's ack, an
  assistance's); with the cache gone (a rebuild), the last applied seq is ``stale_seq``.

The duplicate-answer cache of actions is the seat's last answer itself
(``SeatState.last_ack``, which carries its seq: a duel's ``ack``, which the watch fan-out
and the log rebuild read as a frame; a solo seat's ``solo_ack``): the core
(``app/rooms/duel_core.py``, every mode's step) passes its seq here. Solo's assists keep
their own, an :class:`Answered` (the seq asked and the answer given). Both build the
repeat with :func:`again`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from app.wire.duel import Ack
from app.wire.solo import SoloAck, SoloAssist

Payload = dict[str, Any]
SameAction = Callable[[int], bool]
"""Whether the command that came with ``seq`` is what was answered at that seq."""


class SeqRule(msgspec.Struct, frozen=True, gc=False):
    """Where a mode's rule differs (the module's docstring says how)."""

    name: str
    checks_action: bool
    answers_from_log: bool


DUEL = SeqRule("duel", checks_action=True, answers_from_log=True)
SOLO = SeqRule("solo", checks_action=False, answers_from_log=False)


class Accept(msgspec.Struct, frozen=True, gc=False):
    """The next seq of a game in progress: judge the command itself."""


class Duplicate(msgspec.Struct, frozen=True, gc=False):
    """Answered already: the same answer again (:func:`again`), nothing applied."""


class Refuse(msgspec.Struct, frozen=True, gc=False):
    """Not applied: the reject's ``code`` and ``message`` (with a view for a resync)."""

    code: str
    message: str


Verdict = Accept | Duplicate | Refuse
ACCEPT = Accept()
DUPLICATE = Duplicate()


class Answered(msgspec.Struct, frozen=True, gc=False):
    """The duplicate-answer cache: the last seq answered and the answer it got."""

    seq: int
    answer: Ack | SoloAck | SoloAssist

    def again(self) -> Ack | SoloAck | SoloAssist:
        return again(self.answer)


Acknowledgement = TypeVar("Acknowledgement", bound=Ack | SoloAck | SoloAssist)


def again(answer: Acknowledgement) -> Acknowledgement:
    """An answer given again to a resend: the same fields, marked as a duplicate."""
    return msgspec.structs.replace(answer, duplicate=True)


def _any_action(seq: int) -> bool:
    return True


def judge(rule: SeqRule, seq: int, applied: int, last_seq: int | None, opened: bool,
          ended: str | None, same: SameAction = _any_action) -> Verdict:
    """The verdict on a command numbered ``seq``.

    ``applied``: the actions applied so far (the last applied seq); ``last_seq``: the seq
    of the cached answer, if any; ``opened``: the game's clock started; ``ended``: the
    game's end status (None while it is in progress); ``same``: asked (only when
    ``rule.checks_action`` or ``rule.answers_from_log`` needs it) whether the command is
    the one answered at a seq.
    """
    if seq == last_seq or (rule.answers_from_log and seq == applied and applied > 0):
        if rule.checks_action and not same(seq):
            return Refuse("seq_taken", f"seq {seq} was taken by another action of yours "
                                       "(another tab or device) just before")
        return DUPLICATE
    if seq == applied + 1 and opened and ended is None:
        return ACCEPT  # the common case
    if rule.answers_from_log and seq == applied + 1 and ended == "finished" and same(seq):
        return DUPLICATE  # a finish resent to a copy rebuilt from the log
    if ended is not None:
        return Refuse("game_over", f"the game is over ({ended})")
    if not opened:
        return Refuse("not_opened", "open the game before playing")
    if seq < 1 or seq > applied + 1:
        return Refuse("bad_seq", f"the next seq is {applied + 1}")
    return Refuse("stale_seq", f"seq {seq} is older than the last applied ({applied})")
