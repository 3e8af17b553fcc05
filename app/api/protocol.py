"""The WebSocket protocol, version 1: every frame is one JSON object with a ``type``.

Client messages are parsed with :func:`parse_client_message` (a pydantic discriminated
union on ``type``, in strict mode: ``"1"`` or ``2.0`` is not a seq); server messages are
the typed structs of ``app/wire/`` (``ServerFrame``), made by the live layer's builders.
``python -m app.api.protocol_docs`` writes the JSON schemas of both into ``docs/protocol/``
and ``docs/protocol.md``, and a test keeps them current.

Game content in server messages (``view``, ``events``) is produced by the rooms layer from
``app.engine.view.player_view`` only: face-down cards and the stock order never appear.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, ValidationError

from app.api.protocol_base import ActionJson, Id, Request, Seq
from app.api.protocol_social import Say
from app.api.protocol_solo import (
    SoloAct,
    SoloAskHint,
    SoloAutoComplete,
    SoloCancel,
    SoloOpen,
    SoloRescue,
    SoloUndoToWinnable,
)
from app.errors import BadRequest
from app.wire.session import PROTOCOL_VERSION as PROTOCOL_VERSION

MAX_FRAME_BYTES = 16 * 1024


# --------------------------------------------------------------------------- client → server


class Hello(Request):
    """First frame of a connection: who I am, and where my event stream stopped."""

    type: Literal["hello"]
    v: int = Field(PROTOCOL_VERSION, description="Protocol version the client speaks.")
    token: str | None = Field(
        None, max_length=2048,
        description="Bearer token (never on the URL, which access logs record).",
    )
    stream: str | None = Field(
        None, max_length=64, description="The `stream` of the previous welcome, to resume."
    )
    last_event: int | None = Field(
        None, ge=0, description="The last event number `n` received on that stream."
    )


class Resume(Request):
    """Ask again for everything after ``last_event`` (or a fresh snapshot if too old)."""

    type: Literal["resume"]
    stream: str = Field(max_length=64)
    last_event: int = Field(ge=0)


class OpenGame(Request):
    """Open my game of a match: starts my clock the first time; answered by a snapshot."""

    type: Literal["open_game"]
    match_id: Id


class Act(Request):
    """One action in my game. ``seq`` is 1 + the number of actions already applied."""

    type: Literal["action"]
    match_id: Id
    seq: Seq
    action: ActionJson


class Finish(Request):
    """"Terminer": end my game now; my score stands. Carries a ``seq`` like an action."""

    type: Literal["finish"]
    match_id: Id
    seq: Seq


class AskHint(Request):
    """A suggested next action for my own game in progress; changes nothing (no seq)."""

    type: Literal["hint"]
    match_id: Id


class Spectate(Request):
    """Watch a game: my opponent's once my own game is over, anybody's once the match is."""

    type: Literal["spectate"]
    match_id: Id
    player_id: Id | None = Field(
        None, description="Whose game; left out = my opponent's."
    )


class Unspectate(Request):
    type: Literal["unspectate"]
    match_id: Id
    player_id: Id | None = None


class GetReplay(Request):
    """The full record (layout and actions) of a game; only once the whole match is over."""

    type: Literal["get_replay"]
    match_id: Id
    player_id: Id


class SubscribeLobby(Request):
    type: Literal["subscribe_lobby"]


class UnsubscribeLobby(Request):
    type: Literal["unsubscribe_lobby"]


class WatchPresence(Request):
    """Follow whether my friends are online (all, or those listed); replaces the earlier list.

    Players not in my friend list are left out: presence is not for strangers to probe.
    """

    type: Literal["watch_presence"]
    player_ids: list[Id] | None = Field(None, max_length=500)


class Ping(Request):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | Resume | OpenGame | Act | Finish | AskHint | Spectate | Unspectate | GetReplay
    | SubscribeLobby | UnsubscribeLobby | WatchPresence | Say | Ping | SoloOpen | SoloAct
    | SoloAskHint | SoloRescue | SoloAutoComplete | SoloUndoToWinnable | SoloCancel,
    Field(discriminator="type"),
]
CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(BadRequest):
    """A frame that is not a valid client message; ``code`` says which kind of wrong."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)


def parse_client_message(frame: str | bytes) -> ClientMessage:
    """Parse one text frame; raise :class:`ProtocolError` with a clear message otherwise."""
    if isinstance(frame, bytes):
        raise ProtocolError("binary_frame", "frames must be text (UTF-8 JSON), not binary")
    if len(frame.encode()) > MAX_FRAME_BYTES:
        raise ProtocolError("frame_too_large", f"a frame may hold at most {MAX_FRAME_BYTES} bytes")
    try:
        return CLIENT_ADAPTER.validate_json(frame)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "frame"
        code = "bad_json" if first["type"] == "json_invalid" else "bad_message"
        raise ProtocolError(code, f"{where}: {first['msg']}") from None
