"""A protocol client for the harness and the multi-process tests: REST signup and tables,
WebSocket hello, open, act; one outstanding action at a time, timed."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection, connect

Frame = dict[str, Any]
# The load client reads every frame of hundreds of sockets on the cores it shares with the
# server it loads: msgspec reads an ack in half of json.loads' time (same values).
_decode = msgspec.json.Decoder().decode


class ProtocolFailure(RuntimeError):
    """The server answered something the protocol does not allow here."""


@dataclass
class Player:
    id: int
    name: str
    token: str


async def signup(http: httpx.AsyncClient, name: str) -> Player:
    response = await http.post("/api/players", json={"name": name})
    if response.status_code != 201:
        raise ProtocolFailure(f"signup {name}: {response.status_code} {response.text}")
    body = response.json()
    return Player(body["player"]["id"], body["player"]["name"], body["token"])


async def seat_pair(
    http: httpx.AsyncClient, owner: Player, guest: Player, **table: Any
) -> int:
    """A table of `owner`, joined by `guest`: returns the match id."""
    headers = {"Authorization": f"Bearer {owner.token}"}
    body = {"preset": "duel", "suits": 1, "rated": False, **table}
    created = await http.post("/api/tables", json=body, headers=headers)
    if created.status_code != 201:
        raise ProtocolFailure(f"create table: {created.status_code} {created.text}")
    table_id = created.json()["id"]
    joined = await http.post(
        f"/api/tables/{table_id}/join", headers={"Authorization": f"Bearer {guest.token}"}
    )
    if joined.status_code != 200 or joined.json().get("match_id") is None:
        raise ProtocolFailure(f"join table: {joined.status_code} {joined.text}")
    return int(joined.json()["match_id"])


@dataclass
class DuelClient:
    """One WebSocket of one player."""

    ws: ClientConnection
    player: Player
    welcome: Frame
    frames: list[Frame] = field(default_factory=list)
    snapshots: dict[int, Frame] = field(default_factory=dict)
    errors: list[Frame] = field(default_factory=list)
    _answer: asyncio.Future[Frame] | None = None
    _expects: Any = None  # the predicate the pending answer must satisfy
    _answered_at: float = 0.0  # perf_counter when the pending answer arrived
    _reader: asyncio.Task[None] | None = None
    keep_frames: bool = True

    @classmethod
    async def open(
        cls, url: str, player: Player, *, stream: str | None = None, last_event: int | None = None,
        keep_frames: bool = True,
    ) -> DuelClient:
        ws = await connect(f"{url}/ws", max_size=2**20, ping_interval=None, open_timeout=30)
        hello: Frame = {"type": "hello", "v": 1, "token": player.token}
        if stream is not None:
            hello |= {"stream": stream, "last_event": last_event}
        await ws.send(json.dumps(hello))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if welcome.get("type") != "welcome":
            await ws.close()
            raise ProtocolFailure(f"expected welcome, got {welcome}")
        client = cls(ws, player, welcome, keep_frames=keep_frames)
        client._reader = asyncio.create_task(client._read())
        return client

    @property
    def last_event(self) -> int:
        numbered = [f["n"] for f in self.frames if "n" in f]
        return max(numbered, default=self.welcome["last_event"])

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                # Timed as it arrives, before it is parsed: the echo's bare recv() parses
                # nothing either.
                arrived = time.perf_counter()
                frame = _decode(text)
                if self.keep_frames:
                    self.frames.append(frame)
                kind = frame.get("type")
                if kind == "snapshot" and frame.get("role") == "player":
                    self.snapshots[frame["match_id"]] = frame
                if kind == "error":
                    self.errors.append(frame)
                answer = self._answer
                if answer is not None and not answer.done() and self._expects(frame):
                    # Timed on arrival: the caller wakes two loop turns later
                    # (wait_for's callback, then its task), turns the echo's bare
                    # recv() does not take; on one client driving hundreds of sockets
                    # each turn waits for every other socket's ready work.
                    self._answered_at = arrived
                    answer.set_result(frame)
        except Exception:  # the connection ended; pending callers see it below
            pass
        finally:
            answer = self._answer
            if answer is not None and not answer.done():
                answer.set_exception(ConnectionError("connection closed"))

    async def request(self, frame: Frame, *, timeout: float = 30.0) -> tuple[Frame, float]:
        """Send one frame, wait for its answer; returns (answer, round trip seconds).

        The answer is the first frame that can only be about this request: an error, or
        the reply of the request's kind for the same match (and seq), so a resync
        snapshot or a stray event is never taken for it.
        """
        self._expects = _answers(frame)
        self._answer = asyncio.get_running_loop().create_future()
        text = json.dumps(frame)  # before the clock starts, as the echo's frame is made
        started = time.perf_counter()
        try:
            await self.ws.send(text)
        except BaseException:  # the socket died under the send: nobody will await it
            self._answer.cancel()  # (the reader's "connection closed" went unretrieved)
            raise
        answer = await asyncio.wait_for(self._answer, timeout)
        return answer, self._answered_at - started

    async def open_game(self, match_id: int) -> Frame:
        answer, _ = await self.request({"type": "open_game", "match_id": match_id})
        if answer.get("type") != "snapshot":
            raise ProtocolFailure(f"open_game: {answer}")
        return answer

    async def act(self, match_id: int, seq: int, action: Frame) -> tuple[Frame, float]:
        return await self.request(
            {"type": "action", "match_id": match_id, "seq": seq, "action": action}
        )

    async def closed(self) -> None:
        """Returns once the server or the network has ended the connection."""
        if self._reader is not None:
            await asyncio.shield(self._reader)

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            await self._reader


def _answers(request: Frame) -> Any:
    kind, match_id = request.get("type"), request.get("match_id")
    replies = {"open_game": ("snapshot",), "spectate": ("snapshot",), "ping": ("pong",),
               "get_replay": ("replay",), "action": ("ack", "reject"),
               "finish": ("ack", "reject")}.get(str(kind), ("ack", "reject", "snapshot"))

    def expects(frame: Frame) -> bool:
        if frame.get("type") == "error":
            return True
        if frame.get("type") not in replies:
            return False
        if match_id is not None and frame.get("match_id") not in (None, match_id):
            return False
        if kind == "open_game" and frame.get("role") != "player":
            return False
        if kind == "spectate" and frame.get("role") != "spectator":
            return False
        if kind in ("action", "finish") and frame.get("seq") != request.get("seq"):
            return False
        # The same player's other connection may have taken this seq first: its ack
        # reaches every connection, and this one's own answer (seq_taken) follows.
        return frame.get("type") != "ack" or did_step(frame, request)

    return expects


def did_step(ack: Frame, request: Frame) -> bool:
    """Whether ``ack`` answers ``request`` (an action or a finish): its events show the
    step asked for. A duplicate answers a resend of that very step."""
    if ack.get("duplicate"):
        return True
    events = ack.get("events") or []
    kinds = {event["kind"]: event for event in events}
    manual = [e for e in events if e["kind"] == "flipped" and not e.get("automatic")]
    if "moved" in kinds:
        step: tuple[Any, ...] = ("move", kinds["moved"]["from"], kinds["moved"]["to"])
    elif "undone" in kinds or "dealt" in kinds:
        step = ("undo" if "undone" in kinds else "deal",)
    else:
        step = ("flip", manual[0]["col"]) if manual else ("finish",)
    action = request.get("action") or {}
    asked: tuple[Any, ...] = (
        ("finish",) if request.get("type") == "finish"
        else ("move", action.get("from"), action.get("to")) if action.get("op") == "move"
        else ("flip", action.get("col")) if action.get("op") == "flip"
        else (action.get("op"),))
    return step == asked
