"""The solo messages of the WebSocket: a thin adapter from frames to ``SoloPlay``.

Answers are numbered events on the player's stream (``session.emit``) except the hint,
which goes to the asking connection only, as in duels. Commands that wait for the solver
run beside the connection's loop (``SEARCHES``), so that ``solo_cancel`` reaches them.
"""

from __future__ import annotations

import asyncio
import logging

from app.api import protocol_solo as p
from app.errors import SpiderError
from app.messaging.player_streams import EventStream, Outbox
from app.rooms import frames
from app.runtime import metrics
from app.services.solo_play import SoloPlay

log = logging.getLogger(__name__)

SOLO_MESSAGES = (p.SoloOpen, p.SoloAct, p.SoloAskHint, p.SoloRescue, p.SoloAutoComplete,
                 p.SoloUndoToWinnable, p.SoloCancel)
SoloMessage = (p.SoloOpen | p.SoloAct | p.SoloAskHint | p.SoloRescue | p.SoloAutoComplete
               | p.SoloUndoToWinnable | p.SoloCancel)
SEARCHES = (p.SoloAskHint, p.SoloRescue, p.SoloUndoToWinnable)
"""Commands that may wait for the solver (seconds): handled beside the connection's loop,
so that a ``solo_cancel`` sent meanwhile is read and stops them."""
_searching: set[asyncio.Task[None]] = set()


async def handle(message: SoloMessage, solo: SoloPlay, session: EventStream, outbox: Outbox
                 ) -> None:
    if isinstance(message, p.SoloCancel):
        await solo.cancel(player_id=session.player_id, game_id=message.game_id)
    elif isinstance(message, SEARCHES):
        task = asyncio.create_task(_answer_search(message, solo, session, outbox))
        _searching.add(task)
        task.add_done_callback(_searching.discard)
        await asyncio.sleep(0)  # it takes the game's lock before the next frame is read
    else:
        await _answer(message, solo, session, outbox)


async def _answer_search(message: SoloMessage, solo: SoloPlay, session: EventStream,
                         outbox: Outbox) -> None:
    """A search's answer, or the error frame the connection's loop would have sent."""
    try:
        await _answer(message, solo, session, outbox)
    except SpiderError as error:
        metrics.REJECTED.labels(code=error.code).inc()
        outbox.put(frames.error(error.code, error.detail))
    except Exception:  # a bug or an outage must not go unanswered
        metrics.ERRORS.labels(where="ws").inc()
        log.exception("failed to handle a %s frame", type(message).__name__)
        outbox.put(frames.error("internal", "the server failed to handle this frame"))


async def _answer(message: SoloMessage, solo: SoloPlay, session: EventStream, outbox: Outbox
                  ) -> None:
    me = session.player_id
    if isinstance(message, p.SoloAskHint):
        outbox.put(await solo.hint(player_id=me, game_id=message.game_id))
        return
    if isinstance(message, p.SoloCancel):
        return
    if isinstance(message, p.SoloUndoToWinnable):
        frames_out = await solo.undo_to_winnable(player_id=me, game_id=message.game_id,
                                                 seq=message.seq)
        for frame in frames_out:
            session.emit(frame)
        return
    if isinstance(message, p.SoloOpen):
        frames = await solo.open(player_id=me, game_id=message.game_id)
    elif isinstance(message, p.SoloAct):
        frames = await solo.act(player_id=me, game_id=message.game_id, seq=message.seq,
                                action=message.action)
    elif isinstance(message, p.SoloRescue):
        frames = await solo.rescue(player_id=me, game_id=message.game_id, seq=message.seq)
    else:
        frames = await solo.auto_complete(player_id=me, game_id=message.game_id,
                                          seq=message.seq)
    for frame in frames:
        session.emit(frame)


async def resync(solo: SoloPlay, session: EventStream) -> None:
    """A fresh connection without replay: my opened solo games in progress, as snapshots."""
    for snapshot in await solo.snapshots(player_id=session.player_id):
        session.emit(snapshot)
