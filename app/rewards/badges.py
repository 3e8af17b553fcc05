"""The 15 badges: one table, and one pure function that says which a settlement earns.

The badge listener hears the one "game/match settled" event, builds
:class:`SettledFacts` (that game, from the player's side) and :class:`PlayerRecord`
(the player's totals, this game included) from the database, and stores what
:func:`badges_earned` returns. Every rule is checked at every settlement, so a badge
whose totals were reached some other way is awarded at the player's next settlement.
The table, in words: docs/badges.md (a test keeps it equal to :data:`BADGES`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from app.rewards.fair_play import SKILL_BADGES, AssistCounts, FairPlay, fair_play
from app.rewards.streaks import NO_STREAK, Streak

GameKind = Literal["solo", "daily", "duel"]
GAME_KINDS: tuple[GameKind, ...] = ("solo", "daily", "duel")
SOLO_KINDS = ("solo", "daily")

QUICK_WIN_MS = 5 * 60_000
LEAN_WIN_ACTIONS = 150
SOLO_WINS_GOAL = 100
DUEL_WINS_GOAL = 10
DAILIES_PLAYED_GOAL = 7
WEEK_STREAK = 7
MONTH_STREAK = 30


class BadgeInputError(ValueError):
    """Facts no settled game can have, or totals that leave out the settled game."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledFacts:
    """One settled game, seen from one player: a solo or daily game, or their side of a duel.

    Counts are the game's own: ``undos`` the undo actions in its log, ``hints`` the hints
    asked, ``rescues`` the rescues that played actions, ``auto_completed`` whether the
    auto-complete played its end. ``won`` is the game won (solo, daily) or the match won
    (duel; a draw is not a win).
    """

    kind: GameKind
    suits: int
    won: bool
    ended_at: datetime
    elapsed_ms: int
    actions: int
    undos: int = 0
    hints: int = 0
    rescues: int = 0
    auto_completed: bool = False
    solvable_only: bool = True
    relaxed: bool = False
    rated: bool = False
    """Duels only: whether the match moved ratings."""
    own_score: int | None = None
    opponent_score: int | None = None
    """Duels only: the final ``duel`` scores."""
    behind_at_opponent_finish: bool = False
    """Duels only: the opponent's game ended first, and at that moment this player's
    score was below the opponent's final score."""
    daily_date: date | None = None
    """Daily games only: the day whose deal it was."""
    assists: AssistCounts | None = None
    """Solo and daily games: every assist asked (``solo_assists``); ``None``: what the
    counters above say (a game from before the assists were logged)."""

    def __post_init__(self) -> None:
        if self.kind not in GAME_KINDS:
            raise BadgeInputError(f"kind must be solo, daily or duel, not {self.kind!r}")
        if type(self.suits) is not int or self.suits not in (1, 2, 4):
            raise BadgeInputError(f"suits must be 1, 2 or 4, not {self.suits!r}")
        if not isinstance(self.ended_at, datetime) or self.ended_at.utcoffset() is None:
            raise BadgeInputError("ended_at needs a time zone (UTC)")
        for name in ("elapsed_ms", "actions", "undos", "hints", "rescues"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise BadgeInputError(f"{name} must be a whole number from 0 up, not {value!r}")
        duel = self.kind == "duel"
        if duel != (self.own_score is not None and self.opponent_score is not None):
            raise BadgeInputError("own_score and opponent_score are given for duels, and only")
        if self.behind_at_opponent_finish and not duel:
            raise BadgeInputError("behind_at_opponent_finish is a duel's fact")
        if (self.kind == "daily") != (self.daily_date is not None):
            raise BadgeInputError("daily_date is given for daily games, and only")

    @property
    def fair(self) -> FairPlay:
        """The fair-play verdict of the game's assists (docs/points.md, "Fair play")."""
        counts = self.assists or AssistCounts(hints=self.hints, rescues=self.rescues,
                                              auto_complete=int(self.auto_completed))
        return fair_play(counts)

    @property
    def solo_win(self) -> bool:
        """A won solo or daily game."""
        return self.won and self.kind in SOLO_KINDS

    @property
    def duel_win(self) -> bool:
        return self.won and self.kind == "duel"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRecord:
    """The player's totals, read after the settled game was stored (it is included)."""

    solo_wins: int = 0
    """Won solo games (not daily)."""
    daily_wins: int = 0
    daily_played: int = 0
    """Daily games settled, won or not."""
    duel_wins: int = 0
    daily_streak: Streak = NO_STREAK

    def __post_init__(self) -> None:
        for name in ("solo_wins", "daily_wins", "daily_played", "duel_wins"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise BadgeInputError(f"{name} must be a whole number from 0 up, not {value!r}")
        if self.daily_wins > self.daily_played:
            raise BadgeInputError("more daily wins than daily games played")

    def includes(self, settled: SettledFacts) -> bool:
        """Whether these totals can include ``settled`` (they must)."""
        if settled.kind == "daily":
            return self.daily_played >= 1 and (self.daily_wins >= 1 or not settled.won)
        if settled.won:
            return (self.solo_wins if settled.kind == "solo" else self.duel_wins) >= 1
        return True


Rule = Callable[[SettledFacts, PlayerRecord], bool]


@dataclass(frozen=True, slots=True)
class Badge:
    code: str
    title: str
    description: str
    rule: Rule


@dataclass(frozen=True, slots=True)
class BadgeAward:
    code: str
    title: str
    description: str
    earned_at: datetime
    """When the settled game that earned it ended."""


def _solo_win(test: Callable[[SettledFacts], bool]) -> Rule:
    return lambda settled, _: settled.solo_win and test(settled)


def _skill_win(test: Callable[[SettledFacts], bool]) -> Rule:
    """A skill badge's rule: an unassisted solo or daily win that passes ``test``."""
    return lambda settled, _: (settled.solo_win and settled.fair.skill_badges
                               and test(settled))


BADGES: tuple[Badge, ...] = (
    Badge("first_win", "First win", "Win a solo or daily game.",
          _solo_win(lambda s: True)),
    Badge("two_suits", "Two suits", "Win a 2-suit game.",
          _solo_win(lambda s: s.suits == 2)),
    Badge("four_suits", "Four suits", "Win a 4-suit game.",
          _solo_win(lambda s: s.suits == 4)),
    # The skill badges are the player's own: a rescue (the solver plays, with sight of the
    # face-down cards, and never undoes) would earn them by pressing R until the end, and a
    # bot following hints wins a 1-suit deal in seconds. They need an unassisted win
    # (app/rewards/fair_play.py: no hint, rescue or undo-to-winnable).
    Badge("no_undo", "No way back", "Win a solo or daily game without undo, hint or rescue.",
          _skill_win(lambda s: s.undos == 0)),
    Badge("quick", "Quick hands",
          "Win a solo or daily game in under 5 minutes, without hint or rescue.",
          _skill_win(lambda s: s.elapsed_ms < QUICK_WIN_MS)),
    Badge("lean", "Lean",
          f"Win a solo or daily game in {LEAN_WIN_ACTIONS} actions or fewer, "
          "without hint or rescue.",
          _skill_win(lambda s: s.actions <= LEAN_WIN_ACTIONS)),
    Badge("on_my_own", "On my own",
          "Win a solo or daily game without hint, rescue or auto-complete.",
          _skill_win(lambda s: s.fair.on_my_own)),
    Badge("wild_deal", "Wild deal", "Win a random deal (\"solvable only\" off).",
          _solo_win(lambda s: not s.solvable_only)),
    Badge("centurion", "Centurion", f"Win {SOLO_WINS_GOAL} solo or daily games.",
          lambda _, r: r.solo_wins + r.daily_wins >= SOLO_WINS_GOAL),
    Badge("regular", "Regular", f"Play {DAILIES_PLAYED_GOAL} daily deals.",
          lambda _, r: r.daily_played >= DAILIES_PLAYED_GOAL),
    Badge("week_streak", "Week streak",
          f"Win the daily deal {WEEK_STREAK} days in a row.",
          lambda _, r: r.daily_streak.best >= WEEK_STREAK),
    Badge("month_streak", "Month streak",
          f"Win the daily deal {MONTH_STREAK} days in a row.",
          lambda _, r: r.daily_streak.best >= MONTH_STREAK),
    Badge("first_duel", "First duel won", "Win a duel.",
          lambda s, _: s.duel_win),
    Badge("duelist", "Duelist", f"Win {DUEL_WINS_GOAL} duels.",
          lambda _, r: r.duel_wins >= DUEL_WINS_GOAL),
    Badge("comeback", "Comeback",
          "Win a duel after being behind when your opponent's game ended.",
          lambda s, _: s.duel_win and s.behind_at_opponent_finish),
)
BADGE_CODES = tuple(badge.code for badge in BADGES)
assert set(BADGE_CODES) >= SKILL_BADGES
BADGES_BY_CODE = {badge.code: badge for badge in BADGES}


def badges_earned(
    *, settled: SettledFacts, history: PlayerRecord, already: frozenset[str]
) -> list[BadgeAward]:
    """The badges this settlement earns that the player does not hold yet, in table order.

    ``already``: the codes the player holds (codes no longer in the table are ignored).
    """
    if not history.includes(settled):
        raise BadgeInputError(
            f"the player's totals must include the settled {settled.kind} game: {history}"
        )
    return [
        BadgeAward(badge.code, badge.title, badge.description, settled.ended_at)
        for badge in BADGES
        if badge.code not in already and badge.rule(settled, history)
    ]
