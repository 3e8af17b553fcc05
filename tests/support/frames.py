"""A frame checked against its type (app/wire/): what the server's builders make and what
the browser tests' stand-in servers send."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import msgspec

from app.wire.base import Frame, Numbered, numbered
from app.wire.duel import (
    Ack,
    GameOver,
    MatchResult,
    Progress,
    ProgressEvent,
    Reject,
    RevealedDeal,
)
from app.wire.frames import checked, encode
from app.wire.game import ColumnView, GameView
from app.wire.news import Invitation, InvitedGame, InviteEvent, LobbyTable, TableSeat
from app.wire.session import Welcome


def sent(frame: Frame) -> Frame:
    """The frame as a stream sends it: a numbered one with the ``n`` it would get."""
    return numbered(frame, 1) if isinstance(frame, Numbered) else frame


def assert_is_its_type(frame: Frame) -> None:
    """The frame reads back from its JSON as itself: every field of its declared type,
    every literal in its set (``app.wire.frames.checked``)."""
    try:
        checked(sent(frame))
    except msgspec.ValidationError as error:
        raise AssertionError(f"{type(frame).__name__}: {error}") from None


def as_json(frame: Frame) -> dict[str, Any]:
    """The frame as its client reads it (a JSON object), to compare with a dict."""
    result: dict[str, Any] = json.loads(encode(frame))
    return result


def checked_json(frame: Frame) -> str:
    """The text a test's stand-in server sends: only a frame the real server could send
    (a struct of app/wire/, read back as its type), so a fake cannot drift from the
    protocol unseen."""
    assert_is_its_type(frame)
    return encode(frame).decode()


# --------------------------------------------------------------------------- small frames
# For the tests of the messaging layer, which carries frames without reading most of
# their fields: real frames, each with the one field a test follows.


def kind(frame: Frame | dict[str, Any] | None) -> str | None:
    """A frame's ``type`` (its tag), as its client reads it (also of a frame read from
    JSON, a dict: one that came through Redis)."""
    if frame is None or isinstance(frame, dict):
        return None if frame is None else frame.get("type")
    return str(type(frame).__struct_config__.tag)


def a_progress(player_id: int = 2, *, match_id: int = 9, score: int = 0) -> ProgressEvent:
    return ProgressEvent(match_id, Progress(player_id, score, 0, 0, None, 0, "playing", True))


def a_view(*, actions: int = 0, stock: int = 40) -> GameView:
    """A small view (one column), its ``actions`` and ``stock`` what a test follows."""
    return GameView([ColumnView(4, ["Ks", "Qh"])], stock, (stock + 9) // 10, [], "playing",
                    actions, actions > 0)


def an_ack(seq: int = 1, *, match_id: int = 9, duplicate: bool = False,
           view: GameView | None = None) -> Ack:
    return Ack(match_id, seq, view or a_view(), 0, 0, [], "playing", 60_000, duplicate)


def a_reject(seq: int, code: str, *, match_id: int = 9) -> Reject:
    return Reject(match_id, seq, code, code, None, None, None, None)


def a_lobby_table(table_id: int) -> LobbyTable:
    """An open public table of ann's, waiting for a second player."""
    made = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    return LobbyTable(table_id, 1, "ann", "duel", 1, 600, "any", True, True, "any", None,
                      False, "open", made, None, [TableSeat(0, 1, "ann", False)], None, None)


def an_invitation(table_id: int) -> Invitation:
    """A link invitation to table ``table_id`` (what a test follows)."""
    made = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    return Invitation(f"code{table_id}", table_id, 1, "ann", None, None, "link", "pending",
                      made, made, None, InvitedGame("duel", 1, 600, True))


def an_invite(table_id: int) -> InviteEvent:
    return InviteEvent(an_invitation(table_id))


def a_game_over(player_id: int, *, match_id: int = 9) -> GameOver:
    return GameOver(match_id, player_id, "finished", 0, 1000)


def a_result(match_id: int, winner_id: int | None = None) -> MatchResult:
    return MatchResult(match_id, winner_id, [], RevealedDeal(None, 1_000_001, 1))


def a_welcome(stream: str = "s", last_event: int = 0) -> Welcome:
    return Welcome(1, 7, stream, last_event, False)
