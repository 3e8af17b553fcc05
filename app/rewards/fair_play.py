"""Fair play: what a solo or daily game's assists change (docs/points.md, "Fair play").

One pure function, :func:`fair_play`, decides it from the game's assist counts; the
boards, badges, streaks and the result screen all ask it (or read its verdict cached on
the game as ``solo_games.assisted``), so no two places can disagree.

- **Assisted** means the game used a hint, a rescue or undo-to-winnable: help that
  chooses moves (or finds where the game was still winnable) for the player. A bot
  that follows hints wins easy deals in seconds; its games must not top a board.
- **Auto-complete** is not help of that kind: it is offered to everybody once every
  card is face up, the stock is empty and the rest is proved won, and it only plays
  what the player could play by hand. It is recorded, and it costs "On my own".

What an assisted win keeps and loses:

- its **points** are computed as for any win (a rescue still costs its quarter of the
  base; a hint costs nothing), shown on the result and in the player's own stats;
- it is **off the solo points boards**, and on the **daily board** it is listed with
  an "assisted" marker, **without a rank** (after the ranked wins);
- it earns **no skill badge** (No way back, Quick hands, Lean, On my own); the
  milestone badges (First win, Two suits, Four suits, Wild deal, Centurion, Regular)
  count it;
- a daily won with assists **keeps the streak alive without lengthening it**: the day
  is bridged, not counted (the daily is one attempt, and hints there should not cost a
  long streak; but a streak made of assisted days would be a bot's).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

ASSIST_KINDS = ("hint", "rescue", "undo_to_winnable", "auto_complete")
ASSISTING_KINDS = frozenset({"hint", "rescue", "undo_to_winnable"})
"""The kinds that make a game assisted (auto-complete does not)."""
SKILL_BADGES = frozenset({"no_undo", "quick", "lean", "on_my_own"})
"""The badges an assisted game never earns."""


class AssistKindError(ValueError):
    """An assist kind that is not one of :data:`ASSIST_KINDS`."""


@dataclass(frozen=True, slots=True)
class AssistCounts:
    """How many of each assist a game used (rescues: every rescue asked)."""

    hints: int = 0
    rescues: int = 0
    undo_to_winnable: int = 0
    auto_complete: int = 0

    @classmethod
    def of(cls, kinds: Iterable[str]) -> AssistCounts:
        counts = dict.fromkeys(ASSIST_KINDS, 0)
        for kind in kinds:
            if kind not in counts:
                raise AssistKindError(f"not an assist kind: {kind!r}")
            counts[kind] += 1
        return cls(counts["hint"], counts["rescue"], counts["undo_to_winnable"],
                   counts["auto_complete"])

    def to_json(self) -> dict[str, int]:
        return {"hints": self.hints, "rescues": self.rescues,
                "undo_to_winnable": self.undo_to_winnable,
                "auto_complete": self.auto_complete}


@dataclass(frozen=True, slots=True)
class FairPlay:
    """The verdict for one game."""

    assisted: bool
    """Used a hint, a rescue or undo-to-winnable."""
    ranked: bool
    """Counts on the solo points boards and gets a rank on the daily board."""
    skill_badges: bool
    """May earn the skill badges (:data:`SKILL_BADGES`)."""
    streak_grows: bool
    """A daily win lengthens the streak (an assisted one only keeps it alive)."""
    on_my_own: bool
    """No assist at all, auto-complete included."""


def fair_play(counts: AssistCounts) -> FairPlay:
    """What ``counts`` change for the game (the module's docstring says why)."""
    assisted = bool(counts.hints or counts.rescues or counts.undo_to_winnable)
    return FairPlay(assisted=assisted, ranked=not assisted, skill_badges=not assisted,
                    streak_grows=not assisted,
                    on_my_own=not assisted and counts.auto_complete == 0)


def assisting(kind: str) -> bool:
    """Whether one assist of ``kind`` makes a game assisted."""
    return fair_play(AssistCounts.of([kind])).assisted
