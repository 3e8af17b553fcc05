"""What the live duel service needs from storage, and an in-memory implementation.

The duel service keeps games in memory as a cache; this interface is the durable truth:
the match (seats, rules, time limit, deal), each game's clock timestamps and end, and
the append-only action log (``seq`` unique per game). ``app.services.sql_store`` implements
it on the database models; :class:`MemoryStore` serves unit tests and experiments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from app.rooms.winner import PlayerOutcome, decide_winner
from app.wire.news import BadgeEarned

SETTLE_GRACE_SECONDS = 10.0
"""A match whose games are all over is settled by whoever ended the last one; only after
this long without a settlement does the sweeper retry it (no race with that process)."""


class StoreError(RuntimeError):
    """Storage refused or failed; the caller changes nothing in memory."""


FINISHED = "finished"
"""The end reason of a player's finish command (the only end a player asks for)."""


class SeqTaken(StoreError):
    """An action with this ``seq`` is already in the game's log (unique constraint)."""


@dataclass
class StoredAction:
    seq: int
    action: dict[str, Any]
    at: float


@dataclass
class StoredGame:
    game_id: int
    player_id: int
    started_at: float | None = None
    ended_at: float | None = None
    end_reason: str | None = None
    actions: list[StoredAction] = field(default_factory=list)
    name: str | None = None  # the player's name, for the match's result


@dataclass
class StoredMatch:
    match_id: int
    rules: dict[str, Any]
    time_limit_s: float
    games: list[StoredGame]
    deal: dict[str, Any] | None = None
    finished: bool = False
    winner_id: int | None = None
    expires_at: float | None = None  # the table's expiry: unopened games time out then
    start_by: float | None = None  # the start window's end: unopened games end then too
    # A quick duel started at once whose second player is not paired yet (and may still
    # be): its one game over does not end the match (``MatchState.awaiting``).
    awaiting: bool = False


class Totals(msgspec.Struct, frozen=True, gc=False):
    """A game's running totals for the REST views: on each logged action while the game
    is played, on its games row once it has ended (a struct: one is made per action, and
    built in C)."""

    score: int
    actions: int
    time_used_ms: int


@dataclass
class Settled:
    """A match's official result, as the results service recorded it."""

    winner_id: int | None
    ratings: dict[int, tuple[float | None, float | None]]  # player → (before, after)
    # Frames the settlement's listeners left for players (badges earned), to send after
    # the result.
    notices: tuple[tuple[int, BadgeEarned], ...] = ()


class StepStore(Protocol):
    """The port a step's writes go through (``app/rooms/step_writes.py``), in every mode:
    a duel's store (below) and a solo or daily game's (``app/services/solo_seat.py``)."""

    async def start_game(self, game_id: int, at: float) -> None: ...

    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], at: float, progress: Totals,
        *, then: Callable[[], None] | None = None,
    ) -> None:
        """Durably log one legal action (and the game's new totals) before it is acknowledged.

        ``then``, if given, is called once the action is durable and before this returns
        (the group commit calls it in its writer's turn, as the commit's answer is read,
        a loop turn before the appending task wakes); not if the write fails."""
        ...

    async def end_game(self, game_id: int, reason: str, at: float, progress: Totals) -> None:
        """Record the game's end, once: an end already recorded stays (two processes
        timing out one game). A second :data:`FINISHED` raises :class:`SeqTaken`: only
        a copy that missed the first one asks for it, and the log must answer."""
        ...


class DuelStore(StepStore, Protocol):
    """A duel's storage: the step port, and the match around its games."""

    async def load_match(self, match_id: int) -> StoredMatch | None: ...

    async def set_deal(self, match_id: int, deal: dict[str, Any]) -> dict[str, Any]:
        """Store the deal unless one is there; return the one that is stored."""
        ...

    async def game_head(self, game_id: int) -> tuple[int, bool]:
        """The game's last logged seq (0 for none) and whether its end is recorded: a copy
        behind either is stale (another process played or ended it)."""
        ...

    async def finish_match(self, match_id: int, outcomes: list[PlayerOutcome]) -> Settled:
        """Record the result once both games are over (winner, ratings); idempotent."""
        ...

    async def unfinished_match_ids(self, player_id: int | None = None) -> list[int]:
        """Matches with a started game not yet recorded as finished (all, or one player's)."""
        ...

    async def overdue_match_ids(self, now: float, limit: int = 100) -> list[int]:
        """Unfinished matches with work overdue (the sweeper's query): a game opened and
        past its deadline, a game never opened when its table expired, or both games over
        for SETTLE_GRACE_SECONDS and the match still not settled (settling failed)."""
        ...


class MemoryStore:
    """Everything in dicts; what a process restart would lose, a database keeps."""

    def __init__(self) -> None:
        self.matches: dict[int, StoredMatch] = {}
        self.results: dict[int, tuple[int | None, list[PlayerOutcome]]] = {}

    def add_match(self, match: StoredMatch) -> None:
        self.matches[match.match_id] = match

    def _game(self, game_id: int) -> StoredGame:
        for match in self.matches.values():
            for game in match.games:
                if game.game_id == game_id:
                    return game
        raise StoreError(f"no game {game_id}")

    async def load_match(self, match_id: int) -> StoredMatch | None:
        return self.matches.get(match_id)

    async def set_deal(self, match_id: int, deal: dict[str, Any]) -> dict[str, Any]:
        match = self.matches[match_id]
        if match.deal is None:
            match.deal = deal
        return match.deal

    async def start_game(self, game_id: int, at: float) -> None:
        game = self._game(game_id)
        if game.started_at is None:
            game.started_at = at

    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], at: float, progress: Totals,
        *, then: Callable[[], None] | None = None,
    ) -> None:
        game = self._game(game_id)
        if any(stored.seq == seq for stored in game.actions):
            raise SeqTaken(f"game {game_id} already has seq {seq}")
        game.actions.append(StoredAction(seq, dict(action), at))
        if then is not None:
            then()

    async def game_head(self, game_id: int) -> tuple[int, bool]:
        game = self._game(game_id)
        return max((stored.seq for stored in game.actions), default=0), game.ended_at is not None

    async def end_game(self, game_id: int, reason: str, at: float, progress: Totals) -> None:
        game = self._game(game_id)
        if game.ended_at is None:
            game.ended_at = at
            game.end_reason = reason
        elif reason == FINISHED:  # a second finish: from a stale copy (as SqlStore says)
            raise SeqTaken(f"game {game_id} is over already ({game.end_reason})")

    async def finish_match(self, match_id: int, outcomes: list[PlayerOutcome]) -> Settled:
        winner_id = decide_winner(outcomes)
        self.matches[match_id].finished = True
        self.matches[match_id].winner_id = winner_id
        self.results[match_id] = (winner_id, outcomes)
        return Settled(winner_id, {})

    async def unfinished_match_ids(self, player_id: int | None = None) -> list[int]:
        return [
            match.match_id
            for match in self.matches.values()
            if not match.finished
            and any(game.started_at is not None for game in match.games)
            and (player_id is None or any(g.player_id == player_id for g in match.games))
        ]

    async def overdue_match_ids(self, now: float, limit: int = 100) -> list[int]:
        return sorted(m.match_id for m in self.matches.values() if _overdue(m, now))[:limit]


def _overdue(match: StoredMatch, now: float) -> bool:
    if match.finished or not match.games:
        return False
    playing = [game for game in match.games if game.ended_at is None]
    if not playing:  # settle it, unless a quick duel's second player may still come
        return (not match.awaiting
                and max(g.ended_at or now for g in match.games) <= now - SETTLE_GRACE_SECONDS)
    late = any(g.started_at is not None and g.started_at + match.time_limit_s <= now
               for g in playing)
    deadlines = [d for d in (match.expires_at, match.start_by) if d is not None]
    expired = bool(deadlines) and min(deadlines) <= now
    return late or (expired and any(g.started_at is None for g in playing))
