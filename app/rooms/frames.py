"""Every frame the server sends is built here, and everything about a game in it.

One builder per frame type of the protocol (``app/api/protocol.py`` holds their models;
``tests/rooms/test_frames.py`` checks every builder against its model); the two that a
player's event stream makes itself, ``presence`` and ``resync``, are built in
``app/messaging/stream_frames.py`` and handed on from here, and a solo or daily game's,
which read its row, in ``app/services/solo_frames.py`` (the core's ``ack`` and
``reject`` said as solo says them). ``tests/test_layout.py`` finds any frame built by
hand anywhere else in app/. Frames are plain
dicts, built once and never mutated afterwards: event streams copy them shallowly to
number them (``n``), so building a pydantic object per frame would only cost CPU on the
hottest path.

The frames of every action (ack, progress, watch) read a game's score as
``game.score.points``, the field itself, not ``ScoredGame.points``: no call for it.

Positions go out only through ``app.engine.view.player_view`` (face-down cards and the
stock order appear as counts). Events go out by card *name* only, and only for cards that
are face up once the action is done: a moved run, a flipped card, a dealt row. Card ids
(which follow the deal's layout order) never leave the server.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.engine.cards import SUITS, card_name, names
from app.engine.events import (
    ActionUndone,
    CardFlipped,
    CardsMoved,
    Event,
    GameWon,
    RowDealt,
    RunCompleted,
)
from app.engine.view import player_view
from app.messaging.stream_frames import presence as presence  # made by the event streams
from app.messaging.stream_frames import resync as resync
from app.rewards.badges import BadgeAward
from app.rooms.deal_forms import public_deal
from app.rooms.match import SeatState
from app.rooms.winner import PlayerOutcome

Payload = dict[str, Any]


game_view = player_view
"""``game_view(state, memo=None)``: the view of ``state``; with the game's ``memo``, sharing
its unchanged columns (the engine's ``player_view`` itself: no call of ours around it,
once or twice per action)."""


def event_json(event: Event) -> dict[str, Any]:
    if isinstance(event, CardsMoved):
        return {
            "kind": "moved", "from": event.src, "to": event.dst, "cards": names(event.cards),
        }
    if isinstance(event, CardFlipped):
        return {
            "kind": "flipped", "col": event.col, "card": card_name(event.card),
            "automatic": event.automatic,
        }
    if isinstance(event, RowDealt):
        return {"kind": "dealt", "cards": names(event.cards)}
    if isinstance(event, RunCompleted):
        return {"kind": "run_completed", "col": event.col, "suit": SUITS[event.suit]}
    if isinstance(event, GameWon):
        return {"kind": "won"}
    if isinstance(event, ActionUndone):
        return {"kind": "undone"}
    raise TypeError(f"unknown event {event!r}")


def events_json(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    return [event_json(event) for event in events]


# --------------------------------------------------------------------------- game frames


def iso_time(seconds: float) -> str:
    """A moment as the frames say it: ISO 8601, UTC, whole seconds."""
    return datetime.fromtimestamp(round(seconds), UTC).isoformat().replace("+00:00", "Z")


def progress(seat: SeatState, now: float, online: bool, start_deadline: float | None = None
             ) -> Payload:
    """What anybody may know of a game in progress: no card at all. ``start_deadline``
    (the match's) is shown only while the game waits to be opened. ``at_ms``: when
    ``time_left_ms`` was read, on the server's clock: a client dates the clock by it, not
    by the frame's arrival (frames held up by a stalled network come in a burst)."""
    waiting = seat.started_at is None and not seat.over and start_deadline is not None
    return {
        "player_id": seat.player_id, "score": seat.game.score.points,
        "actions": seat.game.state.actions, "runs": len(seat.game.state.removed),
        "time_left_ms": None if seat.started_at is None else seat.time_left_ms(now),
        "at_ms": round(now * 1000),
        "status": seat.status, "online": online,
        "start_deadline": iso_time(start_deadline) if waiting and start_deadline else None,
    }


def progress_event(match_id: int, seat: SeatState, now: float, online: bool,
                   start_deadline: float | None = None) -> Payload:
    return {"type": "progress", "match_id": match_id,
            "progress": progress(seat, now, online, start_deadline)}


def snapshot(match_id: int, rules: dict[str, Any], seat: SeatState, *, role: str, now: float,
             opponent: Payload | None) -> Payload:
    return {
        "type": "snapshot", "match_id": match_id, "player_id": seat.player_id,
        "role": role, "rules": rules,
        "view": game_view(seat.game.state, seat.views), "score": seat.game.points,
        "seq": seat.seq, "status": seat.status,
        "time_limit_ms": round(seat.time_limit_s * 1000),
        "time_left_ms": seat.time_left_ms(now),
        "opponent": opponent,
    }


def ack(match_id: int, seat: SeatState, seq: int, delta: int, events: list[Payload],
        now: float) -> Payload:
    return {
        "type": "ack", "match_id": match_id, "seq": seq,
        "view": game_view(seat.game.state, seat.views), "score": seat.game.score.points,
        "delta": delta, "events": events, "status": seat.status,
        "time_left_ms": seat.time_left_ms(now), "duplicate": False,
    }


def reject(match_id: int, seat: SeatState, seq: int, code: str, message: str) -> Payload:
    return {
        "type": "reject", "match_id": match_id, "seq": seq, "code": code,
        "message": message, "view": game_view(seat.game.state, seat.views),
        "score": seat.game.points, "next_seq": seat.seq + 1, "status": seat.status,
    }


def watch(match_id: int, seat: SeatState, ack: Payload) -> Payload:
    """A step for spectators: the ack's view and events as they are (never mutated)."""
    return {
        "type": "watch", "match_id": match_id, "player_id": seat.player_id,
        "seq": seat.seq, "view": ack["view"], "score": seat.game.score.points,
        "events": ack["events"], "status": seat.status,
    }


def game_over(match_id: int, seat: SeatState, now: float) -> Payload:
    assert seat.end_reason is not None
    return {
        "type": "game_over", "match_id": match_id, "player_id": seat.player_id,
        "reason": seat.status, "score": seat.game.points,
        "elapsed_ms": round(seat.elapsed_s(now) * 1000),
    }


def match_result(match_id: int, outcomes: list[PlayerOutcome], winner_id: int | None,
                 ratings: dict[int, tuple[float | None, float | None]],
                 deal: Payload, names: dict[int, str | None] | None = None) -> Payload:
    """``names``: each player's name when the match was made."""
    names = names or {}
    results = [
        {"player_id": o.player_id, "name": names.get(o.player_id), "score": o.score,
         "elapsed_ms": o.elapsed_ms, "reason": o.reason,
         "rating_before": ratings.get(o.player_id, (None, None))[0],
         "rating_after": ratings.get(o.player_id, (None, None))[1]}
        for o in outcomes
    ]
    return {"type": "match_result", "match_id": match_id, "winner_id": winner_id,
            "results": results, "deal": public_deal(deal)}


def replay(match_id: int, player_id: int, record: Payload) -> Payload:
    return {"type": "replay", "match_id": match_id, "player_id": player_id,
            "record": record}


def hint(match_id: int, action: Payload | None, reason: str) -> Payload:
    return {"type": "hint", "match_id": match_id, "action": action, "reason": reason}


# --------------------------------------------------------------------------- other frames


def welcome(*, version: int, player_id: int, stream: str, last_event: int,
            resumed: bool) -> Payload:
    return {"type": "welcome", "v": version, "player_id": player_id, "stream": stream,
            "last_event": last_event, "resumed": resumed}


def resume_result(*, resumed: bool, stream: str, last_event: int) -> Payload:
    return {"type": "resume_result", "resumed": resumed, "stream": stream,
            "last_event": last_event}


def lobby(change: str, table: Payload) -> Payload:
    return {"type": "lobby", "change": change, "table": table}


def quick_looking(looking: int) -> Payload:
    return {"type": "quick_looking", "looking": looking}


def invite(invite: Payload) -> Payload:
    return {"type": "invite", "invite": invite}


def friend(change: str, player_id: int, name: str) -> Payload:
    """Friend-request news for one player, about ``player_id`` (who asked, answered...)."""
    return {"type": "friend", "change": change, "player_id": player_id, "name": name}


def said(match_id: int, player_id: int, code: str) -> Payload:
    """A canned message at a duel table: a code, never free text."""
    return {"type": "said", "match_id": match_id, "player_id": player_id, "code": code}


def error(code: str, message: str) -> Payload:
    return {"type": "error", "code": code, "message": message}


def badge(award: BadgeAward, kind: str, game_id: int) -> Payload:
    """A badge just earned by the game ``kind`` (solo, daily, duel) ``game_id``."""
    return {"type": "badge",
            "badge": {"code": award.code, "title": award.title,
                      "description": award.description,
                      "earned_at": award.earned_at.astimezone(UTC).isoformat()
                      .replace("+00:00", "Z")},
            "game": {"kind": kind, "id": game_id}}


PONG: Payload = {"type": "pong"}
