"""A live match as a value: one :class:`SeatState` per player on the same deal. What commands
do to a match: ``app/rooms/duel_core.py``; its refusals: ``app/rooms/errors.py``."""

from __future__ import annotations

from typing import Any, cast

import msgspec

from app.engine.rules import Rules
from app.engine.state import GameState
from app.engine.view import ViewMemo
from app.rooms.errors import NotSeated
from app.rooms.modes import DUEL_MODE, UNTIMED, Mode
from app.rooms.store import Totals
from app.rooms.winner import NO_SHOW, NOT_STARTED, PlayerOutcome
from app.scoring.play import ScoredGame
from app.wire.duel import Ack, GameStatus, MatchResult
from app.wire.solo import SoloAck

Payload = dict[str, Any]


# Seats and matches are values by convention, never changed once made (the duel core
# returns new ones), and a new seat and match are made for every action: msgspec
# structs, built in C from positional arguments (a dataclass's ``__init__`` is a Python
# call, a frozen one's sets each field through ``object.__setattr__``), compared by
# identity. A match is untracked by the garbage collector (nothing it holds refers back
# to it); a seat may be weakly referenced (a leak test does), which msgspec allows only
# for a tracked struct.


class SeatState(msgspec.Struct, eq=False, weakref=True):
    """One player's game: a :class:`ScoredGame` fold and a clock that starts when it is
    opened and runs until the game ends, connected or not."""

    game_id: int
    player_id: int
    time_limit_s: float
    game: ScoredGame
    seq: int = 0
    # The logged actions as JSON (dicts of ints and strings): kept for the game's whole
    # life, and such dicts are nothing the garbage collector walks, where Move and Flip
    # objects are. One list shared by the seat's successive values, each seeing its
    # first ``log_length`` entries: appending at the tip costs O(1), not a copy.
    log: list[Payload] = msgspec.field(default_factory=list)
    log_length: int = 0
    started_at: float | None = None
    ended_at: float | None = None
    end_reason: str | None = None
    last_ack: Ack | SoloAck | None = None  # the last seq's answer (a solo game's, as said)
    # A cache of the last view's columns (shared by the seat's successive values).
    views: ViewMemo = msgspec.field(default_factory=ViewMemo)
    name: str | None = None  # the player's name when the match was made (for its result)

    @property
    def over(self) -> bool:
        return self.ended_at is not None

    @property
    def actions(self) -> tuple[Payload, ...]:
        return tuple(self.log[:self.log_length])

    def evolve(self, **changes: Any) -> SeatState:
        """A copy with ``changes``."""
        return msgspec.structs.replace(self, **changes)

    def played(self, game: ScoredGame, seq: int, action: Payload) -> SeatState:
        """This seat once ``action``, numbered ``seq``, made its game ``game``: ``evolve``
        for the hottest path (once per action), without keyword arguments."""
        log, length = self.log, self.log_length
        if len(log) != length:  # an older value plays on: a log of its own
            log = log[:length]
        log.append(action)
        return SeatState(self.game_id, self.player_id, self.time_limit_s, game, seq, log,
                    length + 1, self.started_at, self.ended_at, self.end_reason,
                    self.last_ack, self.views, self.name)

    def overdue(self, now: float) -> bool:
        """The clock ran out and nothing has ended the game yet."""
        started = self.started_at
        return (started is not None and self.ended_at is None
                and now >= started + self.time_limit_s)

    @property
    def status(self) -> GameStatus:
        if self.end_reason == "timed_out" and self.started_at is None:
            return NO_SHOW  # stored as a time-out of a game never opened
        if self.end_reason is not None:
            return cast(GameStatus, self.end_reason)  # won, finished or timed_out
        return NOT_STARTED if self.started_at is None else "playing"

    @property
    def deadline(self) -> float:
        assert self.started_at is not None
        return self.started_at + self.time_limit_s

    def elapsed_s(self, now: float) -> float:
        started = self.started_at
        if started is None or self.ended_at is not None:
            return self.elapsed_if_ended(self.end_reason, self.ended_at or now)
        # A game in progress, read three times per action: worked out here, as
        # ``elapsed_if_ended`` would, without its call and those of min and max.
        elapsed = now - started
        if elapsed <= 0.0:
            return 0.0
        return self.time_limit_s if elapsed > self.time_limit_s else elapsed

    def elapsed_if_ended(self, reason: str | None, at: float) -> float:
        if self.started_at is None:  # never opened: an expired table counts the whole limit
            return self.time_limit_s if reason == "timed_out" else 0.0
        return min(max(0.0, at - self.started_at), self.time_limit_s)

    def time_left_ms(self, now: float) -> int | None:
        """None for a game no clock ends (a solo or daily game's seat)."""
        if self.time_limit_s == UNTIMED:
            return None
        return round((self.time_limit_s - self.elapsed_s(now)) * 1000)

    def totals(self, now: float) -> Totals:
        return Totals(self.game.points, self.game.state.actions,
                        round(self.elapsed_s(now) * 1000))

    def outcome(self, now: float) -> PlayerOutcome:
        return PlayerOutcome(self.player_id, self.game.points, self.elapsed_s(now),
                             self.status if self.over else "finished")


class MatchState(msgspec.Struct, gc=False, eq=False):
    """A match: one seat per player, all on the same stored deal."""

    match_id: int
    rules: Rules
    deal: Payload
    start: GameState
    seats: tuple[SeatState, ...]
    result: MatchResult | None = None
    expires_at: float | None = None  # the table's: games nobody opened by then time out
    start_by: float | None = None  # the start window's end: the same, usually sooner
    # A quick duel started at once, its second player not paired yet: not over when its
    # one game is (app/services/quick_duel.py); a copy loaded once the request lapsed is
    # made without it, and its one game ends it.
    awaiting: bool = False
    mode: Mode = DUEL_MODE  # a duel, or a solo or daily game (one seat): app/rooms/modes.py

    @property
    def start_deadline(self) -> float | None:
        """When a game nobody opened ends as "did not start" (``winner.NO_SHOW``)."""
        start_by, expires_at = self.start_by, self.expires_at
        if start_by is None or expires_at is None:
            return expires_at if start_by is None else start_by
        return min(start_by, expires_at)

    @property
    def over(self) -> bool:
        return not self.awaiting and all(seat.over for seat in self.seats)

    def seated(self, player_id: int) -> bool:
        return any(seat.player_id == player_id for seat in self.seats)

    def seat_of(self, player_id: int) -> SeatState:
        for seat in self.seats:
            if seat.player_id == player_id:
                return seat
        raise NotSeated(f"player {player_id} has no seat in match {self.match_id}")

    def opponent_of(self, player_id: int) -> SeatState:
        self.seat_of(player_id)
        for seat in self.seats:
            if seat.player_id != player_id:
                return seat
        raise NotSeated(f"match {self.match_id} has no opponent for player {player_id}")

    def with_seat(self, seat: SeatState) -> MatchState:
        """This match with ``seat`` replacing the seat of the same player."""
        player_id = seat.player_id
        seats = self.seats
        if len(seats) == 2:  # a duel, once per action: no list made
            first, second = seats
            if first.player_id == player_id:
                seats = (seat, second)
            elif second.player_id == player_id:
                seats = (first, seat)
        else:
            seats = tuple([seat if s.player_id == player_id else s for s in seats])
        return MatchState(self.match_id, self.rules, self.deal, self.start, seats, self.result,
                          self.expires_at, self.start_by, self.awaiting, self.mode)

    def evolve(self, **changes: Any) -> MatchState:
        return msgspec.structs.replace(self, **changes)

    def outcomes(self, now: float) -> list[PlayerOutcome]:
        return [seat.outcome(now) for seat in self.seats]
