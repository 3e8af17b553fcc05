"""End overdue games that no process is watching: the sweeper.

A game's time-out is an asyncio task in a process that holds its match. When every
process that held the match is gone (crashed and not restarted), nobody ends the game
at its deadline; the next load would, retroactively, but an abandoned match may never be
loaded again. So every process asks the database every few seconds for unfinished
matches with a game past its deadline (or never opened when its table expired) and
loads them through the `DuelService`: loading ends overdue games at their deadline and
settles the match when both are over (`DuelService._resume_clocks`).

Several processes may sweep the same match at once; that is safe: the end of a game is
recorded once (the row is locked and only a `playing` game is ended, `SqlStore.end_game`)
and the settlement once (`results.finish_match` claims the match with a conditional
update). At worst both processes announce the same `game_over`/`match_result`. A random
jitter in the period makes such collisions rare.

A match this process already holds has its own timer; the sweeper leaves it alone unless
it is still reported overdue at the next sweep (a failed write, a lost sync message), and
then rebuilds it from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

from app.rooms.duel import DuelService
from app.rooms.store import DuelStore
from app.runtime import metrics
from app.runtime.clock import SYSTEM_CLOCK, Clock

log = logging.getLogger(__name__)

BATCH = 100  # matches per sweep; the next sweep takes the rest
JITTER = 0.25  # ± this share of the period, so processes do not sweep in step


class OverdueSweeper:
    def __init__(
        self, *, store: DuelStore, duels: DuelService, every: float,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self._store = store
        self._duels = duels
        self._every = every
        self._clock = clock
        self._suspects: set[int] = set()  # cached matches reported overdue last time
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="overdue-sweeper")

    async def sweep(self) -> int:
        """One sweep; returns how many matches it loaded or rebuilt."""
        overdue = await self._store.overdue_match_ids(self._clock(), BATCH)
        touched = 0
        suspects = set()
        for match_id in overdue:
            try:
                if not self._duels.cached(match_id):
                    await self._duels.match(match_id)  # loading ends what is overdue
                    touched += 1
                elif match_id in self._suspects:
                    await self._duels.reload(match_id)
                    touched += 1
                else:
                    suspects.add(match_id)  # its own timer should end it any moment
            except Exception:
                metrics.ERRORS.labels(where="sweeper").inc()
                log.exception("could not end the overdue games of match %d", match_id)
        self._suspects = suspects
        if touched:
            log.info("ended overdue games", extra={"matches": touched})
        return touched

    async def _run(self) -> None:
        while True:
            await self._clock.sleep(self._every * random.uniform(1 - JITTER, 1 + JITTER))
            try:
                await self.sweep()
            except Exception:  # the database is away: try again next time
                metrics.ERRORS.labels(where="sweeper").inc()
                log.warning("overdue sweep failed", exc_info=True)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
