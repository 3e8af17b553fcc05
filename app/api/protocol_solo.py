"""The WebSocket protocol's solo client messages (docs/solo-and-daily.md section 5).

Part of protocol version 1: ``app.api.protocol`` puts them in its client union; their
answers are the solo frames of ``app/wire/solo.py``.
"""

from __future__ import annotations

from typing import Literal

from app.api.protocol_base import ActionJson, Id, Request, Seq


class SoloOpen(Request):
    """Open my solo or daily game: the first open starts its clock; answered by a snapshot."""

    type: Literal["solo_open"]
    game_id: Id


class SoloAct(Request):
    """One action in my solo game (``undo`` included); ``seq`` as in duels."""

    type: Literal["solo_action"]
    game_id: Id
    seq: Seq
    action: ActionJson


class SoloAskHint(Request):
    """A hint for my solo game (counted; no seq, no log entry)."""

    type: Literal["solo_hint"]
    game_id: Id


class SoloRescue(Request):
    """Have the server play the next actions of a win for me; ``seq`` = the next seq."""

    type: Literal["solo_rescue"]
    game_id: Id
    seq: Seq


class SoloAutoComplete(Request):
    """Play the rest of the game, once the server offered it; ``seq`` = the next seq."""

    type: Literal["solo_auto_complete"]
    game_id: Id
    seq: Seq


class SoloUndoToWinnable(Request):
    """Undo back to the most recent position of my game from which a win exists (the
    server's solver finds how far); ``seq`` = the next seq. The undos are mine, logged
    as ordinary undos; answered by ``solo_assist`` of kind ``undo_to_winnable``."""

    type: Literal["solo_undo_to_winnable"]
    game_id: Id
    seq: Seq


class SoloCancel(Request):
    """Stop the search running for my game (hint, rescue, undo-to-winnable): the command
    that waits for it answers at once (verdict ``cancelled``). No answer of its own."""

    type: Literal["solo_cancel"]
    game_id: Id
