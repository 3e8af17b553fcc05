"""The runner's hold on a match it serves: its current value, and per seat a lock and the
time-out timer (``app/rooms/step_runner.py`` makes steps on it)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal

from app.messaging import channels
from app.rooms.match import MatchState, SeatState
from app.rooms.seat_log import follow_logged, follow_opened
from app.rooms.store import StoredAction
from app.wire import duel as wire

Followed = Literal["opened", "known", "stale"]  # what became of news followed on a copy


@dataclass(eq=False)
class LiveMatch:
    """The runner's hold on a match: its current value, and per seat a lock and a timer."""

    value: MatchState
    locks: dict[int, asyncio.Lock]
    timers: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    expiry: asyncio.Task[None] | None = None
    match_id: int = field(init=False)
    channel: str = field(init=False)
    watch_channels: dict[int, str] = field(init=False)

    def __post_init__(self) -> None:
        # Read or named once or twice per action: worked out once.
        self.match_id = self.value.match_id
        self.channel = channels.match(self.match_id)
        self.watch_channels = {seat.player_id: channels.watch(self.match_id, seat.player_id)
                               for seat in self.value.seats}

    @property
    def games(self) -> tuple[SeatState, ...]:
        return self.value.seats

    @property
    def over(self) -> bool:
        return self.value.over

    @property
    def result(self) -> wire.MatchResult | None:
        return self.value.result

    def game_of(self, player_id: int) -> SeatState:
        return self.value.seat_of(player_id)

    def lock(self, player_id: int) -> asyncio.Lock:
        lock = self.locks.get(player_id)
        if lock is None:
            self.value.seat_of(player_id)  # raises NotSeated for a stranger
            raise AssertionError("every seat has its lock")
        return lock

    async def follow(self, player_id: int, logged: StoredAction) -> bool:
        """Apply another process's logged action to this copy, as a rebuild from the log
        would; False when only a rebuild will do (not the next action of the seat)."""
        async with self.lock(player_id):
            seat = self.game_of(player_id)
            if logged.seq <= seat.seq:
                return True  # this copy has it already (rebuilt from the log since)
            followed = follow_logged(seat, logged, match_id=self.match_id)
            if followed is None:
                return False
            self.value = self.value.with_seat(followed)
        return True

    async def follow_opening(self, player_id: int, at: float) -> Followed:
        """Open the player's game on this copy, as another process did at ``at``:
        ``opened`` now, ``known`` already (rebuilt from the log since), or ``stale``: only
        a rebuild will do (the copy has moved on without it: news missed)."""
        async with self.lock(player_id):
            seat = self.game_of(player_id)
            if seat.started_at is not None:
                return "known"
            opened = follow_opened(seat, at)
            if opened is None:
                return "stale"
            self.value = self.value.with_seat(opened)
        return "opened"

    def stop_timers(self, *, expiry: bool = False) -> list[asyncio.Task[None]]:
        """Cancel the time-out timers (and ``expiry``: the table's) but the running task:
        this copy decides nothing more. Returns the tasks cancelled."""
        tasks = list(self.timers.values())
        self.timers.clear()
        if expiry and self.expiry is not None:
            tasks.append(self.expiry)
        stopped = [task for task in tasks if task is not asyncio.current_task()]
        for task in stopped:
            task.cancel()
        return stopped
