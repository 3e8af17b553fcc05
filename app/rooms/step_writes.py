"""A step's writes made through the store port: the one way every mode stores a step.

A :class:`~app.rooms.duel_core.Step` lists what must be stored before its reply is final
(its clock started, its action logged, its game ended). A duel's runner
(``app/rooms/step_runner.py``) and a solo or daily game (``app/services/solo_seat.py``)
both hand those writes to a :class:`~app.rooms.store.StepStore` here, in the order the
core gave them (the ``required`` ones first); what differs is only the store behind the
port: the duel's commits each action (in groups, ``app/services/group_commit.py``), the
solo game's makes them in the game's own transaction, which its end's listeners share.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from app.rooms.duel_core import AppendAction, EndGame, StartGame, Step
from app.rooms.store import StepStore, StoreError

log = logging.getLogger(__name__)


async def write_step(store: StepStore, step: Step, *,
                     then: Callable[[], None] | None = None) -> AppendAction | None:
    """Make ``step``'s writes through ``store``; returns the action it logged, if any.

    ``then`` goes with the last write when that is the action (the store calls it once
    the action is durable); the caller runs it itself otherwise. An end that is not
    ``required`` (a win, a time-out: the log proves it again) stands even if its write
    fails; any other failure raises :class:`StoreError` and the step is not adopted."""
    writes = step.writes
    appended: AppendAction | None = None
    for write in writes:
        if isinstance(write, AppendAction):  # the frequent one inline: no coroutine
            appended = write
            await store.append_action(
                write.game_id, write.seq, write.action, write.at, write.progress,
                then=then if write is writes[-1] else None)
        elif isinstance(write, StartGame):
            await store.start_game(write.game_id, write.at)
        else:
            await _end_game(store, write)
    return appended


async def _end_game(store: StepStore, write: EndGame) -> None:
    try:
        await store.end_game(write.game_id, write.reason, write.at, write.progress)
    except StoreError:
        if write.required:
            raise
        log.exception("could not record the end of game %d (%s)", write.game_id,
                      write.reason)
