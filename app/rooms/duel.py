"""Live duels: the commands of the live layer, and the cache of the matches it holds.

The only mutable game state of the server. Per match a :class:`LiveMatch` holds the
current :class:`MatchState` value (``app/rooms/match.py``), a lock and a time-out timer per
seat. A command runs under its seat's lock: the pure core (``app/rooms/duel_core.py``)
computes a step from the match and the clock's time, and the step runner
(``app/rooms/step_runner.py``) writes it (the log is the truth: a required write that
fails changes nothing and answers ``not_stored``), adopts it and carries out its effects.
An action's reply is a value the adapter sends between the two, before the effects
(``acting``, ``app/rooms/acting.py``).
A match is rebuilt from the store on first use (deal + logs) and its clocks resumed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from app.engine.rules import rules_from_json
from app.engine.solver.advice import hint as visible_hint
from app.messaging import channels
from app.messaging.pubsub import PubSub
from app.rooms import duel_core as core
from app.rooms import frames
from app.rooms.acting import Acting, Actions
from app.rooms.deal_forms import choose_deal, start_state
from app.rooms.duel_core import Reply
from app.rooms.errors import (
    GameIsOver,
    NoSuchMatch,
    NotOpened,
    NotReadNow,
    NotSeated,
    ReplayNotReady,
    RoomError,
    SpectateRefused,
)
from app.rooms.live_match import LiveMatch
from app.rooms.match import MatchState
from app.rooms.peers import Change, PeerSync
from app.rooms.seat_log import rebuild_seat
from app.rooms.step_runner import StepRunner
from app.rooms.store import DuelStore, StoreError
from app.runtime.clock import SYSTEM_CLOCK, Clock
from app.runtime.keyed_lock import KeyedLock
from app.runtime.solver_worker import off_loop
from app.wire import duel as wire
from app.wire.duel import Snapshot

__all__ = [
    "DuelService", "GameIsOver", "LiveMatch", "NoSuchMatch", "NotOpened", "NotSeated",
    "ReplayNotReady", "RoomError", "SpectateRefused",
]

log = logging.getLogger(__name__)

Follow = Callable[[str], Awaitable[None]]
Payload = dict[str, Any]

SETTLED_CACHE = 500
HINTS_AT_ONCE = 2
"""Hints computed at the same time, server-wide: each holds a worker thread for a few ms."""


class DuelService:
    def __init__(
        self,
        *,
        store: DuelStore,
        pubsub: PubSub,
        clock: Clock = SYSTEM_CLOCK,
        is_online: Callable[[int], bool] = lambda player_id: False,
        peers: bool = False,
    ) -> None:
        self._store = store
        # Several processes (app/rooms/peers.py): drop our copy when another one changes it.
        self._peers = PeerSync(pubsub, self._peer_changed) if peers else None
        self._runner = StepRunner(store=store, pubsub=pubsub, clock=clock,
                                  is_online=is_online, on_settled=self._keep_settled,
                                  is_current=self._is_current, rebuild=self.reload,
                                  peers=self._peers)
        self._clock = clock
        self._matches: dict[int, LiveMatch] = {}
        self._actions = Actions(runner=self._runner, clock=clock, cached=self._matches.get,
                                match=self.match, reload=self.reload, peers=peers)
        self._settled: deque[int] = deque()  # finished matches still cached, oldest first
        self._loading = KeyedLock()  # per match being read
        self._hinting = asyncio.Semaphore(HINTS_AT_ONCE)

    # ------------------------------------------------------------------ loading

    async def restore(self) -> int:
        """After a start: rebuild every unfinished match so its clocks run again."""
        ids = await self._store.unfinished_match_ids()
        for match_id in ids:
            await self.match(match_id)
        return len(ids)

    async def match(self, match_id: int) -> LiveMatch:
        live = self._matches.get(match_id)
        if live is not None:
            return live
        # One load per match at a time, and matches load side by side: after a worker
        # dies, its players come back at once and each match is read from the log (one
        # lock for every load made the twentieth wait for nineteen).
        async with self._loading.hold(match_id):
            live = self._matches.get(match_id)
            if live is None:
                live = await self._load(match_id)
        return live

    async def _load(self, match_id: int) -> LiveMatch:
        # Listen to the other processes' news before reading the log: an action they log
        # between the read and a later subscription would never reach this copy, and the
        # next one, not following on, would drop it again (a rebuild after every few
        # actions under load). News heard during the read wait for it (_peer_changed).
        if self._peers is not None:
            await self._peers.watch(match_id)
        try:
            with _read_or_refuse():
                stored = await self._store.load_match(match_id)
                if stored is None:
                    raise NoSuchMatch(f"there is no match {match_id}")
                rules = rules_from_json(stored.rules)
                deal = stored.deal or await self._store.set_deal(match_id, choose_deal(rules))
        except BaseException:
            if self._peers is not None:
                await self._peers.unwatch(match_id)
            raise
        start = start_state(rules, deal)
        seats = tuple(rebuild_seat(game, start, stored.time_limit_s,
                                        match_id=stored.match_id)
                      for game in stored.games)
        value = MatchState(match_id, rules, deal, start, seats, expires_at=stored.expires_at,
                      start_by=stored.start_by, awaiting=stored.awaiting)
        live = LiveMatch(value, {seat.player_id: asyncio.Lock() for seat in seats})
        self._matches[match_id] = live
        if await self._runner.resume(live, stored):
            self._keep_settled(match_id)
        return live

    # ------------------------------------------------------------------ playing

    async def open_game(self, *, player_id: int, match_id: int, follow: Follow) -> Snapshot:
        """Start my clock (first time only) and return my snapshot; follow the match."""
        live = await self.match(match_id)
        if live.value.awaiting and not live.value.seated(player_id):
            live = await self.reload(match_id)  # paired since our copy was made (a quick duel)
        elif self._peers is not None and await _behind_the_log(self._store, live, player_id):
            # Another process played this game and its news has not reached our copy yet
            # (the player's other tab heard of the step first): the log decides.
            live = await self.reload(match_id)
        async with live.lock(player_id):
            await follow(channels.match(match_id))
            now = self._clock()
            for command in (core.expiry_due, core.open_seat):  # each on the match so far
                step = command(live.value, player_id, now)
                if step is not None:
                    await self._runner.run(live, player_id, step)
            return self._runner.snapshot(live, live.game_of(player_id), role="player")

    def acting(self, *, player_id: int, match_id: int, seq: int, action: Payload
               ) -> Acting:
        """``async with duels.acting(...) as reply``: the action's reply (an ack or a
        refusal) in the block, where the adapter sends it; the step's effects as the
        block is left. The ack so leaves once its action is durable and its seat
        adopted, before anything the step publishes (``app/rooms/acting.py``)."""
        return Acting(self._actions, player_id, match_id, seq, action)

    def finishing(self, *, player_id: int, match_id: int, seq: int) -> Acting:
        return self.acting(player_id=player_id, match_id=match_id, seq=seq,
                           action={"op": core.FINISH_OP})

    async def act(self, *, player_id: int, match_id: int, seq: int, action: Payload
                  ) -> Reply:
        """The action's reply, once its step's effects are carried out (for a caller
        with nobody to answer sooner)."""
        async with self.acting(player_id=player_id, match_id=match_id, seq=seq,
                               action=action) as reply:
            return reply

    async def finish(self, *, player_id: int, match_id: int, seq: int) -> Reply:
        async with self.finishing(player_id=player_id, match_id=match_id, seq=seq) as reply:
            return reply

    async def hint(self, *, player_id: int, match_id: int) -> wire.Hint:
        """A suggested next action for my own game in progress; changes nothing.

        The advice sees only what the player sees (app.engine.solver.advice.hint), so its
        answer may go to the client as it is. The state is read under the game's lock and
        the search runs in a worker thread, outside the lock and off the event loop.
        """
        live = await self.match(match_id)
        async with live.lock(player_id):
            due = core.deadline_due(live.value, player_id, self._clock())
            if due is not None:
                await self._runner.run(live, player_id, due)
            state = core.hint_state(live.value, player_id)  # immutable: safe to read later
        async with self._hinting:
            advice = await off_loop(visible_hint, state)
        return frames.hint(match_id, advice.action, advice.reason)

    # ------------------------------------------------------------------ watching

    async def spectate(
        self, *, viewer_id: int, match_id: int, player_id: int | None, follow: Follow
    ) -> wire.Snapshot:
        live = await self.match(match_id)
        target = core.spectated(live.value, viewer_id, player_id)
        if self._peers is not None:
            # The game may be played on another process, whose news of its last steps
            # may still be on the way to our copy: follow first, then read the log, so
            # that every step is in the snapshot or in a `watch` to come.
            await follow(channels.watch(match_id, target.player_id))
            live = await self.reload(match_id)
        async with live.lock(target.player_id):
            await follow(channels.watch(match_id, target.player_id))
            await follow(channels.match(match_id))
            return self._runner.snapshot(live, live.game_of(target.player_id), role="spectator")

    async def replay(self, *, viewer_id: int, match_id: int, player_id: int) -> wire.Replay:
        live = await self.match(match_id)
        if not live.over and self._peers is not None:
            # Its end may be another process's news lost in a Redis outage: the log
            # decides before a refusal (the chaos test saw "replay_not_ready" when over).
            live = await self.reload(match_id)
        return core.replay(live.value, player_id)

    async def resync(self, *, player_id: int, follow: Follow) -> list[wire.Snapshot]:
        """Fresh snapshots of the player's opened games in unfinished matches (reconnects)."""
        snapshots = []
        with _read_or_refuse():
            match_ids = await self._store.unfinished_match_ids(player_id)
        for match_id in match_ids:
            live = await self.match(match_id)
            if live.game_of(player_id).started_at is None:
                continue
            async with live.lock(player_id):
                await follow(channels.match(match_id))
                seat = live.game_of(player_id)
                snapshots.append(self._runner.snapshot(live, seat, role="player"))
        return snapshots

    # ------------------------------------------------------------------ the cache

    def _keep_settled(self, match_id: int) -> None:
        """Finished matches stay cached for replays and late spectators, a bounded few."""
        self._settled.append(match_id)
        while len(self._settled) > SETTLED_CACHE:
            self._matches.pop(self._settled.popleft(), None)

    def forget(self, match_id: int) -> None:
        """Drop a cached match nobody has opened yet (its stored deal was replaced)."""
        live = self._matches.get(match_id)
        if live is not None and all(seat.started_at is None for seat in live.games):
            del self._matches[match_id]

    def cached(self, match_id: int) -> bool:
        return match_id in self._matches

    def _is_current(self, live: LiveMatch) -> bool:
        return self._matches.get(live.match_id) is live

    async def reload(self, match_id: int) -> LiveMatch:
        """Drop our copy and rebuild it from the log (ends what is overdue; the sweeper)."""
        await self._invalidate(match_id)
        return await self.match(match_id)

    def result(self, match_id: int) -> wire.MatchResult | None:
        live = self._matches.get(match_id)
        return None if live is None else live.result

    async def online_changed(self, player_id: int) -> None:
        """A player's presence changed: their opponents see it in the progress line."""
        for live in list(self._matches.values()):
            if live.value.seated(player_id) and not live.over:
                # Under the seat's lock: a step made (its seat adopted as its row commits)
                # but not answered yet shows in no progress line before its ack leaves.
                async with live.lock(player_id):
                    await self._runner.fan_out.publish_progress(live, live.game_of(player_id))

    async def _peer_changed(self, match_id: int, change: Change) -> None:
        """Another process changed the match: follow its action or opening, or drop our
        stale copy."""
        live = self._matches.get(match_id)
        if live is None and self._loading.held(match_id):
            # Our copy is being read from the log: the news may be newer than the read.
            async with self._loading.hold(match_id):
                live = self._matches.get(match_id)
        if (live is not None and not change.ended and change.player_id in live.locks
                and await _followed(live, change, self._runner.arm)):
            return
        await self._invalidate(match_id)
        if change.ended:  # rebuild now: settles the match if that was the last game to end
            await self.match(match_id)

    async def _invalidate(self, match_id: int) -> None:
        live = self._matches.pop(match_id, None)
        if self._peers is not None:
            await self._peers.unwatch(match_id)
        if live is not None:
            live.stop_timers(expiry=True)  # a dropped copy decides nothing more
            live.expiry = None

    async def close(self) -> None:
        if self._peers is not None:
            await self._peers.close()
        for live in self._matches.values():
            for task in live.stop_timers(expiry=True):
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._matches.clear()


async def _followed(live: LiveMatch, change: Change,
                    arm: Callable[[LiveMatch, int], None]) -> bool:
    """Another process's change applied to our copy; False when only a rebuild will do."""
    assert change.player_id is not None
    if change.logged is not None:
        return await live.follow(change.player_id, change.logged)
    if change.opened_at is None:
        return False
    followed = await live.follow_opening(change.player_id, change.opened_at)
    if followed == "opened":
        arm(live, change.player_id)  # its clock runs here too, as on a rebuilt copy
    return followed != "stale"


async def _behind_the_log(store: DuelStore, live: LiveMatch, player_id: int) -> bool:
    """Whether the log holds more of the player's game than our copy (another process
    logged a step, or recorded the end, and its news has not reached us yet)."""
    if not live.value.seated(player_id):
        return False  # an outsider: refused by the core as it is
    seat = live.game_of(player_id)
    try:
        last_logged, ended = await store.game_head(seat.game_id)
    except StoreError:  # the database is away: our copy is the best answer there is
        log.warning("could not read the log's head of game %d", seat.game_id)
        return False
    return last_logged > seat.log_length or (ended and not seat.over)


@contextlib.contextmanager
def _read_or_refuse() -> Iterator[None]:
    """A read the log could not answer (the database away, a connection cut) is refused
    with a code that says "send it again": no copy is kept, nothing changed."""
    try:
        yield
    except StoreError as error:
        raise NotReadNow("the match could not be read just now; send the same frame "
                         "again") from error
