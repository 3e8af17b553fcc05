"""A real uvicorn server on a free port and a temp SQLite file, and real WebSocket clients.

Every frame any client receives is recorded (``FrameLog``) so tests can check, over whole
duels, that nothing hidden ever left the server.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from tests.support.database import MigratedDatabases, sqlite_url
from tests.support.duel_layouts import near_finished_layout

ROOT = Path(__file__).resolve().parents[2]
SECRET = "live-test-secret"
RECV_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """``python -m uvicorn`` serving the testing app (the product's and the test routes) in a
    subprocess; stop and start keep the database."""

    def __init__(self, database: Path, log: Path) -> None:
        self.database = database
        self.log = log
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        env = {
            **os.environ,
            "SPIDER_DATABASE_URL": sqlite_url(self.database),
            "SPIDER_SECRET_KEY": SECRET,
            "SPIDER_PLAYER_CREATE_BURST": "1000",
            "SPIDER_PLAYER_CREATE_PER_MINUTE": "1000",
            # Whole duels are played as fast as the server answers: no frame rate limit.
            "SPIDER_WS_ACTIONS_PER_SECOND": "100000",
            "SPIDER_WS_ACTION_BURST": "100000",
            # Rescues and auto-completes bounded by the solver's node budgets, not by
            # a wall clock that a loaded machine runs out (as in tests/web/conftest.py).
            "SPIDER_SOLO_RESCUE_SECONDS": "60",
            "SPIDER_SOLO_AUTO_COMPLETE_SECONDS": "60",
        }
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "tests.support.testing_app:app",
                 "--host", "127.0.0.1",
                 "--port", str(self.port), "--log-level", "warning"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("uvicorn did not answer /healthz within 30 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None


@pytest.fixture(scope="module")
def live_server(
    migrated_databases: MigratedDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """One server per test module (starting uvicorn is the slow part); tests use their own
    players (``signup`` makes names unique), so they do not see each other's games."""
    folder = tmp_path_factory.mktemp("live")
    migrated_databases.fresh_url("sqlite", folder)  # copies the migrated template
    server = LiveServer(folder / "spider.db", folder / "uvicorn.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class FrameLog:
    """Every frame received by every client, in arrival order: (player id, frame)."""

    frames: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


@dataclass
class Account:
    id: int
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Client:
    """One WebSocket connection of one player; remembers its stream position."""

    def __init__(self, server: LiveServer, account: Account, log: FrameLog) -> None:
        self.server = server
        self.account = account
        self.log = log
        self.connection: ClientConnection | None = None
        self.stream: str | None = None
        self.last_event = 0
        self.welcome: dict[str, Any] = {}
        self.pending: list[dict[str, Any]] = []

    async def connect(self, *, resume: bool = False) -> dict[str, Any]:
        self.pending.clear()  # frames of the previous connection, already counted
        self.connection = await websockets.connect(self.server.ws, max_size=2**22)
        hello: dict[str, Any] = {"type": "hello", "v": 1, "token": self.account.token}
        if resume and self.stream is not None:
            hello.update(stream=self.stream, last_event=self.last_event)
        await self.send(hello)
        self.welcome = await self.recv()
        assert self.welcome["type"] == "welcome", self.welcome
        if not self.welcome["resumed"]:
            self.last_event = self.welcome["last_event"]
        self.stream = self.welcome["stream"]
        return self.welcome

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
            self.connection = None

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(json.dumps(message))

    async def send_raw(self, text: str | bytes) -> None:
        assert self.connection is not None
        await self.connection.send(text)

    async def recv(self, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        if self.pending:
            return self.pending.pop(0)
        assert self.connection is not None
        raw = await asyncio.wait_for(self.connection.recv(), timeout)
        frame: dict[str, Any] = json.loads(raw)
        self.log.frames.append((self.account.id, frame))
        if "n" in frame:  # event numbers increase by one on the stream, never skip
            assert frame["n"] == self.last_event + 1, (self.last_event, frame)
            self.last_event = frame["n"]
        return frame

    async def until(self, kind: str, timeout: float = RECV_TIMEOUT, **match: Any
                    ) -> dict[str, Any]:
        """The next frame of type ``kind`` (and fields ``match``); frames before it are kept."""
        skipped: list[dict[str, Any]] = []
        try:
            while True:
                frame = await self.recv(timeout)
                if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                    return frame
                skipped.append(frame)
        finally:
            self.pending = skipped + self.pending

    async def request(self, message: dict[str, Any], kind: str | tuple[str, ...]
                      ) -> dict[str, Any]:
        """Send and return the first answer of the given type(s), keeping the others."""
        await self.send(message)
        kinds = (kind,) if isinstance(kind, str) else kind
        skipped: list[dict[str, Any]] = []
        try:
            while True:
                frame = await self.recv()
                if frame["type"] in kinds:
                    return frame
                assert frame["type"] != "error", f"{message} was answered by {frame}"
                skipped.append(frame)
        finally:
            self.pending = skipped + self.pending

    def drop_pending(self) -> None:
        self.pending.clear()


_names = itertools.count(1)


async def signup(http: httpx.AsyncClient, name: str) -> Account:
    """A new player named ``name`` plus a number (tests share one server per module)."""
    response = await http.post("/api/players", json={"name": f"{name}{next(_names)}"})
    assert response.status_code == 201, response.text
    body = response.json()
    return Account(body["player"]["id"], body["player"]["name"], body["token"])


async def seated_match(
    http: httpx.AsyncClient, ann: Account, bob: Account, *, time_limit: int = 600,
    layout: dict[str, Any] | None = None, suits: int = 1, clock: int | None = None,
) -> int:
    """A public duel table with Ann and Bob seated; its match id (with a test layout)."""
    created = await http.post("/api/tables", headers=ann.auth, json={
        "preset": "duel", "suits": suits, "time_limit_seconds": time_limit,
        "level": "any", "public": True, "rated": True,
    })
    assert created.status_code == 201, created.text
    joined = await http.post(f"/api/tables/{created.json()['id']}/join", headers=bob.auth)
    assert joined.status_code == 200, joined.text
    match_id = joined.json()["match_id"]
    assert match_id is not None
    if layout is not None:
        body: dict[str, Any] = {"layout": layout}
        if clock is not None:
            body["time_limit_seconds"] = clock
        put = await http.put(f"/api/test/matches/{match_id}/layout", headers=ann.auth,
                             json=body)
        assert put.status_code == 200, put.text
    return int(match_id)


@dataclass
class Duel:
    server: LiveServer
    http: httpx.AsyncClient
    log: FrameLog
    ann: Account
    bob: Account
    match_id: int

    def client(self, account: Account) -> Client:
        return Client(self.server, account, self.log)


@asynccontextmanager
async def make_duel(server: LiveServer, *, clock: int | None = None) -> AsyncIterator[Duel]:
    """Ann and Bob seated at a rated 1-suit duel table on the near-finished test layout."""
    async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
        ann = await signup(http, "Ann")
        bob = await signup(http, "Bob")
        match_id = await seated_match(http, ann, bob, layout=near_finished_layout(),
                                      clock=clock)
        yield Duel(server, http, FrameLog(), ann, bob, match_id)
