"""The solo messages of the WebSocket: a thin adapter from frames to ``SoloPlay``.

Answers are numbered events on the player's stream (``session.emit``) except the hint,
which goes to the asking connection only, as in duels.
"""

from __future__ import annotations

from app.api import protocol_solo as p
from app.rooms.streams import EventStream, Outbox
from app.services.solo_play import SoloPlay

SOLO_MESSAGES = (p.SoloOpen, p.SoloAct, p.SoloAskHint, p.SoloRescue, p.SoloAutoComplete)
SoloMessage = p.SoloOpen | p.SoloAct | p.SoloAskHint | p.SoloRescue | p.SoloAutoComplete


async def handle(message: SoloMessage, solo: SoloPlay, session: EventStream, outbox: Outbox
                 ) -> None:
    me = session.player_id
    if isinstance(message, p.SoloAskHint):
        outbox.put(await solo.hint(player_id=me, game_id=message.game_id))
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
