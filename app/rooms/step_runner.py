"""Carrying out the duel core's steps: the store's writes, timers and fan-out.

The runner half of ``app/rooms/duel.py``: a :class:`Step` from ``app/rooms/duel_core.py``
is made (written, required writes first: if one fails nothing is adopted; its seat
adopted into the match held, ``app/rooms/live_match.py``), then its effects carried out
in order: timers armed or disarmed, the step shown to spectators, progress to the match,
other processes told, the end of a game announced and the match settled once all its
games are over. Two phases: the player's reply, final once the step is made, leaves
before anything the step publishes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import msgspec

from app.messaging import channels
from app.messaging.pubsub import PubSub
from app.rooms import duel_core as core
from app.rooms import frames
from app.rooms.duel_core import (
    ACKED,
    AppendAction,
    Arm,
    Disarm,
    Effect,
    GameEnded,
    ProgressChanged,
    Reply,
    Step,
)
from app.rooms.fan_out import FanOut
from app.rooms.live_match import LiveMatch
from app.rooms.match import SeatState
from app.rooms.peers import PeerSync
from app.rooms.step_writes import write_step
from app.rooms.store import DuelStore, StoredMatch
from app.runtime.clock import Clock
from app.wire import duel as wire

log = logging.getLogger(__name__)


class Made(msgspec.Struct, frozen=True, gc=False):
    """A step made: its writes durable, its seat adopted, its reply final (the player may
    have it now); its effects still to come (``StepRunner.carry_out``), after the reply.
    ``appended``: the action it logged, which other processes apply to their copies."""

    reply: Reply | None
    effects: tuple[Effect, ...] = ()
    appended: AppendAction | None = None


class _Adopt:
    """Adopts a step's seat once its writes are durable, once.

    Only the player's seat is adopted: the other seat may have moved on (under its own
    lock) while the writes were awaited, and the step computed nothing else."""

    __slots__ = ("done", "live", "player_id", "step")

    def __init__(self, live: LiveMatch, player_id: int, step: Step) -> None:
        self.live, self.player_id, self.step = live, player_id, step
        self.done = False

    def __call__(self) -> None:
        if self.done:
            return
        self.done = True
        live, step = self.live, self.step
        if step.base is not None and live.value is step.base:
            live.value = step.match  # nothing else moved: the step's match is the match
        else:
            live.value = live.value.with_seat(step.match.seat_of(self.player_id))


@dataclass(kw_only=True, eq=False)
class StepRunner:
    """``is_current``: whether the cache still holds this copy of the match;
    ``rebuild``: drop the cached copy and rebuild the match from the log."""

    store: DuelStore
    pubsub: PubSub
    clock: Clock
    is_online: Callable[[int], bool]
    on_settled: Callable[[int], None]
    is_current: Callable[[LiveMatch], bool]
    rebuild: Callable[[int], Awaitable[object]]
    peers: PeerSync | None = None

    def __post_init__(self) -> None:
        self.fan_out = FanOut(pubsub=self.pubsub, clock=self.clock, is_online=self.is_online,
                              peers=self.peers)

    async def run(self, live: LiveMatch, player_id: int, step: Step) -> Reply | None:
        """A step nobody waits on (a time-out, an opening, an expiry): made, carried out."""
        made = await self.make(live, player_id, step)
        await self.carry_out(live, player_id, made)
        return made.reply

    async def make(self, live: LiveMatch, player_id: int, step: Step) -> Made:
        """Make the step's writes (required ones first: if one fails, nothing is adopted)
        and adopt its seat. The effects are left to :meth:`carry_out` so that the caller
        may send the reply first: the ack does not wait for the fan-out (with Redis, round
        trips). The store adopts the seat as the row commits (``then``): a task cancelled
        while its action is logged still has its seat adopted, memory keeps to the log."""
        adopt = _Adopt(live, player_id, step)
        appended = await write_step(self.store, step, then=adopt)
        if not adopt.done:
            adopt()
        return Made(step.reply, step.effects, appended)

    async def carry_out(self, live: LiveMatch, player_id: int, made: Made) -> None:
        """A made step's effects, under the game's lock: what they publish keeps its order."""
        for effect in made.effects:
            # The frequent ones inline: no coroutine made for each of them.
            if effect is ACKED:
                await self.fan_out.acked(live, player_id, made.appended)
            elif isinstance(effect, ProgressChanged):
                await self.fan_out.progress_changed(live, effect.player_id,
                                                    ended=effect.ended)
            else:
                await self._effect(live, effect)

    async def _effect(self, live: LiveMatch, effect: object) -> None:
        if isinstance(effect, GameEnded):
            await self.fan_out.publish(live.channel, effect.frame)
            if live.over and live.result is None:
                await self.conclude(live)
        elif isinstance(effect, Arm):
            self.arm(live, effect.player_id)
        elif isinstance(effect, Disarm):
            timer = live.timers.pop(effect.player_id, None)
            if timer is not None and timer is not asyncio.current_task():
                timer.cancel()

    async def resume(self, live: LiveMatch, stored: StoredMatch) -> bool:
        """A match just loaded: its clocks run again, what is overdue ends, a match whose
        games are all over is settled; True when it was settled before (cached as such)."""
        now = self.clock()
        for seat, row in zip(live.games, stored.games, strict=True):
            if seat.over and row.ended_at is None:  # the log says over; the row lags behind
                assert seat.end_reason is not None and seat.ended_at is not None
                await self.store.end_game(
                    seat.game_id, seat.end_reason, seat.ended_at, seat.totals(now))
            elif seat.started_at is not None and not seat.over:
                due = core.deadline_due(live.value, seat.player_id, now)
                if due is not None:
                    await self.run(live, seat.player_id, due)
                else:
                    self.arm(live, seat.player_id)
        await self.resume_expiry(live, now)
        if live.over and live.result is None and not stored.finished:
            await self.conclude(live)
        elif live.over and live.result is None:
            live.value = core.settled(live.value, stored.winner_id, {}, now)
            return True
        return False

    def arm(self, live: LiveMatch, player_id: int) -> None:
        live.timers[player_id] = asyncio.create_task(self._time_out_later(live, player_id))

    async def _time_out_later(self, live: LiveMatch, player_id: int) -> None:
        await self.clock.sleep_until(live.game_of(player_id).deadline)
        async with live.lock(player_id):
            if not self.is_current(live):
                return  # a copy dropped since: the one that replaced it has its own timer
            step = core.time_out(live.value, player_id)
            if step is None:
                return
            live.timers.pop(player_id, None)  # this task is finishing the game itself
            if self.peers is not None:
                await self._end_from_log(live)
            else:
                await self.run(live, player_id, step)

    async def _end_from_log(self, live: LiveMatch) -> None:
        """With other processes, our copy may be stale: another one may have played on
        it (a sync message missed, or sent while we were loading). Ending a game from a
        stale copy would record its stale totals (0 actions, score 0), so rebuild from
        the log, which ends whatever is overdue with the true totals (the rebuild resumes
        the clocks)."""
        await self.rebuild(live.match_id)

    async def resume_expiry(self, live: LiveMatch, now: float) -> None:
        """A match just loaded: end the games nobody opened if their start deadline (the
        start window's end or the table's expiry) has passed, else when it does.

        Ended here, not by the table's timer: with other processes that timer rebuilds
        the match when it fires, which would only arm it again."""
        unopened = [s.player_id for s in live.games if s.started_at is None and not s.over]
        deadline = live.value.start_deadline
        if live.value.awaiting and not unopened and deadline is not None:
            # A quick duel waiting for its second player: at its deadline the request
            # lapses; rebuilt then, the match ends with its one game (docs/api.md).
            if now < deadline:
                live.expiry = asyncio.create_task(self._expire_later(live))
            return
        if not unopened or deadline is None:
            return
        if now < deadline:
            live.expiry = asyncio.create_task(self._expire_later(live))
            return
        for player_id in unopened:
            step = core.expiry_due(live.value, player_id, now)
            if step is not None:
                await self.run(live, player_id, step)

    async def _expire_later(self, live: LiveMatch) -> None:
        deadline = live.value.start_deadline
        if deadline is None:
            return
        # The loop's timer may wake a hair before the wall clock says so: sleep again.
        while self.clock() < deadline:
            await self.clock.sleep_until(deadline)
        if not self.is_current(live):
            return
        if self.peers is not None:  # "never opened" may only be true of our copy
            live.expiry = None
            await self._end_from_log(live)
            return
        for seat in live.games:
            async with live.lock(seat.player_id):
                step = core.expiry_due(live.value, seat.player_id, self.clock())
                if step is not None:
                    await self.run(live, seat.player_id, step)
        if live.value.awaiting and self.is_current(live):  # nobody paired in time
            live.expiry = None
            await self.rebuild(live.match_id)

    async def conclude(self, live: LiveMatch) -> None:
        outcomes = live.value.outcomes(self.clock())
        try:
            settled = await self.store.finish_match(live.match_id, outcomes)
        except Exception:  # the games stay over; the next restore settles the match
            log.exception("could not settle match %d", live.match_id)
            return
        live.value = core.settled(live.value, settled.winner_id, settled.ratings,
                                  self.clock())
        self.on_settled(live.match_id)
        result = live.value.result
        assert result is not None
        for seat in live.games:
            await self.fan_out.publish(channels.player(seat.player_id), result)
        for player_id, notice in settled.notices:  # badges earned, after the result
            await self.fan_out.publish(channels.player(player_id), notice)

    def snapshot(self, live: LiveMatch, seat: SeatState, *, role: wire.Role) -> wire.Snapshot:
        """What ``seat``'s player (or a spectator, ``role``) sees of the match now."""
        others = [s for s in live.games if s is not seat]
        return frames.snapshot(
            live.match_id, live.value.rules, seat, role=role, now=self.clock(),
            opponent=self.fan_out.progress(live, others[0]) if others else None,
        )
