"""The WebSocket endpoint ``/ws``: parse, authorise, call the rooms layer, answer.

A thin adapter. The first frame must be ``hello`` with the bearer token (never on the URL:
an access log, a proxy's included, records URLs, and a token there is a stolen account). With
``ws_validate_frames`` on (the test suite) every server frame is read back as its type
of ``app/wire/`` before it is sent (a literal out of its set, a wrong type, is refused);
in production frames are encoded as built.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

import msgspec
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api import limits, solo_ws, table_talk
from app.api import protocol as p
from app.api.protocol_social import Say
from app.errors import BadRequest, NotAuthenticated, RateLimited, SpiderError, TooLarge
from app.messaging import channels
from app.messaging.player_streams import EventStream, Outbox
from app.ops import context
from app.rooms import frames
from app.rooms.acting import Acting
from app.rooms.duel_core import Reply
from app.rooms.layer import Rooms
from app.runtime import lean_ws, metrics
from app.runtime.connections import ConnectionRegistry, TooManyConnections
from app.services.solo_play import SoloPlay
from app.wire import duel as wire
from app.wire.base import Frame
from app.wire.frames import checked, encode

log = logging.getLogger(__name__)

HELLO_TIMEOUT_SECONDS = 10.0
CLOSE_POLICY = 4401  # not authenticated
CLOSE_PROTOCOL = 4400  # no valid hello / unsupported version
CLOSE_POLICY_VIOLATION = 1008  # origin refused, too many connections, flooding

# Every domain error (app/errors.py) is answered with an error frame, its code and detail,
# and the connection stays open; these categories close it where they end the
# conversation (a refused hello, a refused token, a flood, one connection too many).
CLOSE_CODES: dict[type[SpiderError], int] = {
    BadRequest: CLOSE_PROTOCOL,
    NotAuthenticated: CLOSE_POLICY,
    TooLarge: CLOSE_POLICY_VIOLATION,
    RateLimited: CLOSE_POLICY_VIOLATION,
}


def close_code(kind: type[SpiderError]) -> int:
    """The close code for an error that ends the connection; 1008 for any other kind."""
    category = next((c for c in kind.__mro__ if c in CLOSE_CODES), None)
    return CLOSE_POLICY_VIOLATION if category is None else CLOSE_CODES[category]



router = APIRouter()


def _error_text(code: str, message: str) -> str:
    return encode(frames.error(code, message)).decode()


def _encode_checked(frame: Frame, encoded: bytes | None = None) -> bytes:
    """The frame's JSON, refused unless it reads back as its type; JSON the caller made
    (``encoded``) must say the same."""
    try:
        text = checked(frame)
    except msgspec.ValidationError:
        log.exception("server frame does not match the protocol: %r", type(frame).__name__)
        return encode(frames.error("internal", "the server built a bad frame"))
    if encoded is not None and encoded != text:
        log.error("a frame's JSON made ahead differs from the frame: %r", type(frame).__name__)
    return text


def _encode(frame: Frame, encoded: bytes | None = None) -> bytes:
    return encode(frame) if encoded is None else encoded


def _delivery(websocket: WebSocket, outbox: Outbox, *, validate: bool
              ) -> Callable[[Frame | None], Awaitable[None]]:
    made = _encode_checked if validate else _encode

    async def deliver(frame: Frame | None) -> None:
        if frame is None:
            await websocket.close(code=1008 if outbox.overflowed else outbox.close_code)
        else:
            await websocket.send_text(made(frame).decode())

    return deliver


def _sender(websocket: WebSocket, *, validate: bool
            ) -> Callable[[Frame, bytes | None, bool], bool] | None:
    """Frames straight to uvicorn's protocol when it is the lean one (app/runtime/lean_ws.py):
    the ASGI way costs a task and five coroutine layers per frame."""
    protocol = lean_ws.text_sender(websocket)
    if protocol is None:
        return None
    made = _encode_checked if validate else _encode  # UTF-8 JSON, as sent

    def send_now(frame: Frame, encoded: bytes | None, at_once: bool) -> bool:
        return protocol.can_send_soon() and protocol.send_text_soon(made(frame, encoded),
                                                                    at_once=at_once)

    return send_now


async def _receive_text(websocket: WebSocket) -> str | bytes | None:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text if text is not None else message.get("bytes") or b""


async def _refuse_hello(websocket: WebSocket, message: str) -> None:
    await websocket.send_text(_error_text("hello_first", message))
    await websocket.close(code=CLOSE_PROTOCOL)


async def _hello(websocket: WebSocket) -> p.Hello | None:
    try:
        frame = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT_SECONDS)
    except TimeoutError:  # nothing was sent: nothing to parse, only the time-out to say
        await _refuse_hello(websocket, f"no hello within {HELLO_TIMEOUT_SECONDS:g} s: "
                                       "the first frame must be a hello")
        return None
    if frame is None:
        return None
    try:
        message = p.parse_client_message(frame)
    except p.ProtocolError as error:
        await websocket.send_text(_error_text(error.code, error.message))
        message = None
    if not isinstance(message, p.Hello):
        await _refuse_hello(websocket, "the first frame must be a hello")
        return None
    if message.v != p.PROTOCOL_VERSION:
        await websocket.send_text(_error_text(
            "unsupported_version", f"this server speaks protocol version {p.PROTOCOL_VERSION}"
        ))
        await websocket.close(code=CLOSE_PROTOCOL)
        return None
    return message


async def duel_socket(websocket: WebSocket) -> None:
    settings = websocket.app.state.settings
    if not limits.origin_allowed(websocket.headers.get("origin"),
                                 allowed=settings.ws_allowed_origins,
                                 host=websocket.headers.get("host")):
        await websocket.close(code=CLOSE_POLICY_VIOLATION)  # before accept: HTTP 403
        return
    await websocket.accept()
    rooms: Rooms = websocket.app.state.rooms
    hello = await _hello(websocket)
    if hello is None:
        return
    token = hello.token or ""
    try:
        player_id = await rooms.authenticate(token)
    except Exception:  # any refusal: bad signature, unknown player, no token
        await websocket.send_text(
            _error_text("not_authenticated", "a valid player token is required")
        )
        await websocket.close(code=CLOSE_POLICY)
        return
    stream, last_event = hello.stream, hello.last_event
    del hello, token  # this frame lives as long as the connection: keep only what is used

    resumed: list[bool] = []

    def prelude(session: EventStream) -> list[Frame]:
        missed = session.missed_since(stream, last_event)
        resumed.append(missed is not None)
        welcome = frames.welcome(version=p.PROTOCOL_VERSION, player_id=player_id,
                                 stream=session.stream, last_event=session.last_n,
                                 resumed=missed is not None)
        return [welcome, *(missed or [])]

    context.bind_player(player_id)
    connections: ConnectionRegistry = websocket.app.state.connections
    try:
        connections.admit(websocket, player=player_id)
        try:  # with several processes, the sessions hold the global cap (raises the same)
            session, outbox = await rooms.streams.connect(player_id, prelude,
                                                          (stream, last_event))
        except BaseException:
            connections.release(websocket, player=player_id)
            raise
    except TooManyConnections as error:
        metrics.REJECTED.labels(code=error.code).inc()
        await websocket.send_text(_error_text(error.code, error.detail))
        await websocket.close(code=close_code(type(error)))
        return
    validate = settings.ws_validate_frames
    outbox.start(_delivery(websocket, outbox, validate=validate),
                 _sender(websocket, validate=validate))
    try:
        if not resumed[0]:
            await _resync(rooms, session)
            await solo_ws.resync(websocket.app.state.solo, session)
        await _serve(websocket, rooms, session, outbox)
    except WebSocketDisconnect:
        pass
    finally:
        connections.release(websocket, player=player_id)
        await rooms.streams.disconnect(session, outbox)
        await outbox.stop()


# A plain Starlette route: the endpoint needs no dependency injection. The app serves it
# past the middleware stack (app/ops/middleware.py WebSocketShortcut); the route stays for
# anything that routes normally.
router.add_websocket_route("/ws", duel_socket)


async def _resync(rooms: Rooms, session: EventStream) -> None:
    for snapshot in await rooms.duels.resync(player_id=session.player_id, follow=session.follow):
        session.emit(snapshot)


async def _serve(websocket: WebSocket, rooms: Rooms, session: EventStream, outbox: Outbox) -> None:
    guard = limits.FrameGuard.from_settings(websocket.app.state.settings)
    while True:
        frame = await _receive_text(websocket)
        if frame is None:
            return
        message: p.ClientMessage | None = None
        try:
            guard.admit(frame)  # size, depth, rate: checked before anything is parsed
            message = p.parse_client_message(frame)
            if isinstance(message, solo_ws.SOLO_MESSAGES):
                await solo_ws.handle(message, websocket.app.state.solo, session, outbox)
            elif isinstance(message, Say):
                await table_talk.say(message, websocket.app.state, player_id=session.player_id)
            else:
                await _handle(message, rooms, session, outbox, websocket.app.state.solo)
        except SpiderError as error:  # a limit, a malformed frame, a refusal: nothing changed
            metrics.REJECTED.labels(code=error.code).inc()
            outbox.put(frames.error(error.code, error.detail))
            if guard.should_close:  # refused by the guard many times in a row: flooding
                outbox.close(close_code(type(error)))  # after the refusals, on any path
                await outbox.flushed()
                return
        except Exception:  # a bug or an outage must not kill the player's connection
            metrics.ERRORS.labels(where="ws").inc()
            log.exception("failed to handle a %s frame", type(message).__name__)
            outbox.put(frames.error("internal", "the server failed to handle this frame"))


async def _act(acting: Acting, session: EventStream, *, op: object) -> None:
    """An action, answered inside the block: the ack leaves once its action is durable,
    before anything its step publishes (that happens as the block is left, the opponent's
    and spectators' news with Redis round trips). Timed from here: frame in, answer out."""
    started = time.perf_counter()
    async with acting as reply:
        session.emit_answer(reply)
        record_answer(reply, op=op, started=started)


def record_answer(reply: Reply, *, op: object, started: float) -> None:
    """Count an action's answer in the metrics, timed from ``started`` (perf_counter)."""
    if isinstance(reply, wire.Reject):
        metrics.record_answer(refused=reply.code, duplicate=False, op=op, started=started)
    else:
        metrics.record_answer(refused=None, duplicate=reply.duplicate, op=op, started=started)


async def _handle(message: p.ClientMessage, rooms: Rooms, session: EventStream, outbox: Outbox,
                  solo: SoloPlay | None = None) -> None:
    duels = rooms.duels
    me = session.player_id
    if isinstance(message, p.OpenGame):
        session.emit(await duels.open_game(
            player_id=me, match_id=message.match_id, follow=session.follow))
    elif isinstance(message, p.Act):
        await _act(duels.acting(player_id=me, match_id=message.match_id, seq=message.seq,
                                action=message.action), session, op=message.action.get("op"))
    elif isinstance(message, p.Finish):
        await _act(duels.finishing(player_id=me, match_id=message.match_id, seq=message.seq),
                   session, op="finish")
    elif isinstance(message, p.AskHint):
        # An answer to this connection only, not an event: unnumbered, like pong.
        outbox.put(await duels.hint(player_id=me, match_id=message.match_id))
    elif isinstance(message, p.Spectate):
        session.emit(await duels.spectate(viewer_id=me, match_id=message.match_id,
                                          player_id=message.player_id, follow=session.follow))
    elif isinstance(message, p.Unspectate):
        await session.unfollow_matching(f"watch:{message.match_id}:")
    elif isinstance(message, p.GetReplay):
        session.emit(await duels.replay(viewer_id=me, match_id=message.match_id,
                                        player_id=message.player_id))
    elif isinstance(message, p.SubscribeLobby):
        await session.follow(channels.LOBBY)
    elif isinstance(message, p.UnsubscribeLobby):
        await session.unfollow(channels.LOBBY)
    elif isinstance(message, p.WatchPresence):
        await _watch_presence(rooms, session, message.player_ids)
    elif isinstance(message, p.Resume):
        missed = session.missed_since(message.stream, message.last_event)
        # Said first, whatever follows: a refusal with no opened game is otherwise silent.
        outbox.put(frames.resume_result(resumed=missed is not None, stream=session.stream,
                                        last_event=session.last_n))
        if missed is None:
            await _resync(rooms, session)
            if solo is not None:
                await solo_ws.resync(solo, session)
        else:
            for frame in missed:
                outbox.put(frame)
    elif isinstance(message, p.Ping):
        outbox.put(frames.PONG)
    else:  # Hello
        outbox.put(frames.error("already_hello", "hello is only the first frame"))


async def _watch_presence(rooms: Rooms, session: EventStream, player_ids: list[int] | None
                          ) -> None:
    # Only players in my friend list (all of them when no list is given): presence is
    # not for strangers to probe.
    friends = await rooms.friends_of(session.player_id)
    wanted = friends if player_ids is None else [i for i in player_ids if i in set(friends)]
    await session.unfollow_matching("presence:")
    for player_id in dict.fromkeys(wanted):
        await session.follow(channels.presence(player_id))
        session.emit(frames.presence(player_id, rooms.streams.is_online(player_id)))
