"""The WebSocket protocol, version 1: every frame is one JSON object with a ``type``.

Client messages are parsed with :func:`parse_client_message` (a pydantic discriminated
union on ``type``, in strict mode: ``"1"`` or ``2.0`` is not a seq); server messages are
built by ``app/rooms/frames.py`` and checked against the models below.
``python -m app.api.protocol_docs`` writes the JSON schemas of both unions into
``docs/protocol/`` and ``docs/protocol.md``, and a test keeps them current.

Game content in server messages (``view``, ``events``) is produced by the rooms layer from
``app.engine.view.player_view`` only: face-down cards and the stock order never appear.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from app.api.protocol_base import (
    ActionJson,
    Advice,
    Id,
    MatchFrame,
    Message,
    Numbered,
    Refusal,
    Request,
    Seq,
)
from app.api.protocol_social import Friend, Said, Say
from app.api.protocol_solo import (
    BadgeEarned,
    SoloAck,
    SoloAct,
    SoloAskHint,
    SoloAssist,
    SoloAutoComplete,
    SoloCancel,
    SoloHint,
    SoloOpen,
    SoloOver,
    SoloReject,
    SoloRescue,
    SoloSnapshot,
    SoloUndoToWinnable,
)
from app.errors import BadRequest
from app.rooms.winner import GameStatus

PROTOCOL_VERSION = 1
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


# --------------------------------------------------------------------------- server → client


class Progress(Message):
    """What a player may know of another player's game in progress: no card at all."""

    player_id: int
    score: int
    actions: int
    runs: int
    time_left_ms: int | None = Field(description="None until the game is opened.")
    at_ms: int = Field(description=(
        "When time_left_ms was read, on the server's clock (ms since the epoch): a client "
        "dates the clock by it rather than by the frame's arrival, as frames held up by a "
        "stalled network arrive together later. Compare it with the least "
        "(arrival - at_ms) seen, which absorbs the clocks' offset and the fastest delivery."))
    status: GameStatus
    online: bool
    start_deadline: str | None = Field(
        None, description="While not started: when the game ends as did_not_start (ISO 8601).")


class Welcome(Message):
    type: Literal["welcome"] = "welcome"
    v: int = PROTOCOL_VERSION
    player_id: int
    stream: str = Field(description="Identifies this event stream; give it back to resume.")
    last_event: int = Field(description="The newest event number on the stream so far.")
    resumed: bool = Field(description="True when the missed events follow this frame.")


class ResumeResult(Message):
    """The answer to ``resume``, always, before anything else it causes: ``resumed`` true,
    the missed events follow; false (refused: another stream, or events no longer kept),
    the fresh snapshots of the opened games in unfinished matches follow instead."""

    type: Literal["resume_result"] = "resume_result"
    resumed: bool = Field(description="True when the missed events follow this frame.")
    stream: str = Field(description="This connection's stream: give it back next time.")
    last_event: int = Field(description="The newest event number on the stream so far.")


class Snapshot(MatchFrame):
    """The whole visible state of one game (mine, or one I watch)."""

    type: Literal["snapshot"] = "snapshot"
    player_id: int
    role: Literal["player", "spectator"]
    rules: dict[str, Any]
    view: dict[str, Any]
    score: int
    seq: int = Field(description="Number of actions applied; the next action uses seq + 1.")
    status: GameStatus
    time_limit_ms: int
    time_left_ms: int
    opponent: Progress | None


class Played(MatchFrame):
    """A game's step as it was played: what an ack tells the player and a watch frame
    its spectators (the same view and events)."""

    seq: int
    view: dict[str, Any]
    score: int
    events: list[dict[str, Any]]


class Ack(Played):
    type: Literal["ack"] = "ack"
    delta: int
    status: Literal["playing", "won", "finished", "timed_out"]
    time_left_ms: int
    duplicate: bool = False


class Reject(MatchFrame, Refusal):
    type: Literal["reject"] = "reject"
    view: dict[str, Any] | None
    score: int | None
    next_seq: int | None
    status: str | None


class ProgressEvent(MatchFrame):
    type: Literal["progress"] = "progress"
    progress: Progress


class WatchEvent(Played):
    """A live step of a game I spectate: the new view, read-only."""

    type: Literal["watch"] = "watch"
    player_id: int
    status: str


class GameOver(MatchFrame):
    type: Literal["game_over"] = "game_over"
    player_id: int
    reason: Literal["won", "finished", "timed_out", "did_not_start"]
    score: int
    elapsed_ms: int


class PlayerResult(Message):
    player_id: int
    name: str | None = Field(None, description="The player's name when the match was made.")
    score: int
    elapsed_ms: int
    reason: str
    rating_before: float | None = None
    rating_after: float | None = None


class MatchResult(MatchFrame):
    type: Literal["match_result"] = "match_result"
    winner_id: int | None
    results: list[PlayerResult]
    deal: dict[str, Any] = Field(description="The deal, revealed only now that both are over.")


class Replay(MatchFrame):
    type: Literal["replay"] = "replay"
    player_id: int
    record: dict[str, Any]


class Lobby(Numbered):
    type: Literal["lobby"] = "lobby"
    change: Literal["table_created", "seat_taken", "table_closed", "table_updated"]
    table: dict[str, Any]


class InviteEvent(Numbered):
    """A direct invitation: to its invitee when it is sent (``status`` pending) and when
    its table closes, its last player gone (``status`` cancelled), and to its sender when
    the invitee declines it (``status`` declined)."""

    type: Literal["invite"] = "invite"
    invite: dict[str, Any]


class QuickLooking(Numbered):
    """To lobby subscribers whenever the number of players waiting for a quick duel may
    have changed (a request, a pairing, one given up): that number, now."""

    type: Literal["quick_looking"] = "quick_looking"
    looking: int = Field(ge=0)


class Presence(Numbered):
    type: Literal["presence"] = "presence"
    player_id: int
    online: bool


class Resync(Numbered):
    """Events meant for this stream were lost (Redis was away while they were sent): what
    the client shows may be stale. It sends again what it follows (``open_game``,
    ``spectate``, ``subscribe_lobby``…): each answer brings a fresh snapshot."""

    type: Literal["resync"] = "resync"
    reason: Literal["events_lost"]


class Hint(Advice):
    """The answer to ``hint``: computed from what the player sees only. Not numbered."""

    type: Literal["hint"] = "hint"
    match_id: int


class Error(Message):
    """A frame the server could not accept; nothing was changed. Not numbered."""

    type: Literal["error"] = "error"
    code: str
    message: str


class Pong(Message):
    type: Literal["pong"] = "pong"


ServerMessage = Annotated[
    Welcome | ResumeResult | Snapshot | Ack | Reject | ProgressEvent | WatchEvent | GameOver
    | MatchResult | Replay | Lobby | InviteEvent | QuickLooking | Presence | Friend | Said | Resync
    | Hint | Error | Pong | SoloSnapshot | SoloAck | SoloReject | SoloAssist | SoloHint
    | SoloOver | BadgeEarned,
    Field(discriminator="type"),
]
SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def dump(message: BaseModel) -> str:
    return message.model_dump_json()
