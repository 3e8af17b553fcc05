"""Every frame of a solo or daily game is built here (docs/solo-and-daily.md, section 5).

One builder per frame type, each the shape of its protocol model
(``app/api/protocol_solo.py``; ``tests/services/test_solo_frames.py`` checks every
builder against its model), as ``app/rooms/frames.py`` is for a duel's. A step's answer
comes from the duel core (``frames.ack``/``reject`` of the game's one-seat match) and is
said here as solo says it: with the game's id, its row's score and status, its elapsed
time and whether the auto-complete is offered.

Positions go out only through ``game_view`` (the engine's ``player_view``); a daily's
number and every game's generator deal only once the game is over (``over``).
"""

from __future__ import annotations

from typing import Any

from app.db.solo_models import SoloGame
from app.engine.actions import Action
from app.engine.state import GameState
from app.rooms.frames import game_view
from app.services.solo_store import breakdown_of, options_of
from app.services.solo_views import assist_counts, iso_date, revealed_number

Payload = dict[str, Any]


def snapshot(game: SoloGame, state: GameState, *, elapsed_ms: int, offered: bool
             ) -> Payload:
    """``solo_snapshot``: the whole visible state of the game."""
    return {
        "type": "solo_snapshot", "game_id": game.id, "kind": game.kind,
        "number": revealed_number(game), "daily_date": iso_date(game.daily_date),
        "options": options_of(game).to_json(), "rules": state.rules.to_json(),
        "difficulty": game.difficulty, "view": game_view(state), "score": game.score,
        "seq": state.actions, "status": game.status, "elapsed_ms": elapsed_ms,
        "hints": game.hints, "rescues": game.rescues, "auto_complete": offered,
        "points": game.points,
    }


def reject(game: SoloGame, state: GameState, seq: int, code: str, message: str) -> Payload:
    """``solo_reject``: nothing applied; the view for a resync and the next seq."""
    return {
        "type": "solo_reject", "game_id": game.id, "seq": seq, "code": code,
        "message": message, "view": game_view(state), "score": game.score,
        "next_seq": state.actions + 1, "status": game.status,
    }


def answer(game: SoloGame, state: GameState, reply: Payload, *, elapsed_ms: int,
           offered: bool) -> Payload:
    """The duel core's answer to a step of the game (``reply``: ``ack`` or ``reject``,
    or the seat's cached ``solo_ack`` given again, sent as it is). ``state``: the
    position after the step."""
    if reply["type"] == "reject":
        refused = (reply["seq"], reply["code"], reply["message"])
        return reject(game, state, *refused)
    if reply["type"] != "ack":
        return reply
    return {
        "type": "solo_ack", "game_id": game.id, "seq": reply["seq"], "view": reply["view"],
        "score": game.score, "delta": reply["delta"], "events": reply["events"],
        "status": game.status, "elapsed_ms": elapsed_ms, "auto_complete": offered,
        "duplicate": False,
    }


def step(seq: int, action: Action | Payload, by: str, events: list[Payload]) -> Payload:
    """One action played for the player, inside ``solo_assist``'s ``steps``."""
    logged = action if isinstance(action, dict) else action.to_json()
    return {"seq": seq, "action": logged, "by": by, "events": events}


def assist(game: SoloGame, state: GameState, *, kind: str, verdict: str, message: str,
           steps: list[Payload], cost: int, elapsed_ms: int, offered: bool) -> Payload:
    """``solo_assist``: a rescue's, the auto-complete's or an undo to the last winnable
    position's answer: the steps played, then where the game stands."""
    return {
        "type": "solo_assist", "game_id": game.id, "kind": kind, "verdict": verdict,
        "message": message, "steps": steps, "view": game_view(state), "score": game.score,
        "seq": state.actions, "status": game.status, "elapsed_ms": elapsed_ms,
        "rescues": game.rescues, "points_cost": cost, "auto_complete": offered,
        "duplicate": False,
    }


def hint(game_id: int, action: Action | None, verdict: str, reason: str, *,
         undos: int | None = None, move: int | None = None) -> Payload:
    """``solo_hint``: the guided hint (this connection only, not numbered)."""
    return {"type": "solo_hint", "game_id": game_id,
            "action": None if action is None else action.to_json(), "reason": reason,
            "verdict": verdict, "undos": undos, "undo_to_move": move}


def over(game: SoloGame) -> Payload:
    """``solo_over``: the end of a game, with its number and deal now revealed."""
    breakdown = breakdown_of(game)
    return {
        "type": "solo_over", "game_id": game.id, "status": game.status,
        "elapsed_ms": game.elapsed_ms, "actions": game.actions_count, "points": game.points,
        "points_breakdown": None if breakdown is None else breakdown.to_json(),
        "number": game.number, "source_deal": game.source_deal,
        "daily_date": iso_date(game.daily_date),
        "assisted": game.assisted, "assists": assist_counts(game),
    }
