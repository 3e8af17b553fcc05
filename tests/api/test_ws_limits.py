"""The WebSocket limits on a live server: origin, connections per player, rate, dead peers.

A contract of the transport: every test here runs on the lean WebSocket path
(app/runtime/lean_ws.py, the default) and on uvicorn's stock one (what the server takes
with releases lean_ws.py was not written for). A player must not tell them apart."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from bench.server import Server
from tests.support.cluster import TRANSPORTS, Cluster, server_env
from tests.support.database import migrated_sqlite_url
from tests.support.sync_client import Account, SyncClient, signup

MAX_STRIKES = 50  # app/api/limits.py FrameGuard: refusals in a row before the close
BURST = 10


@pytest.fixture(scope="module", params=TRANSPORTS)
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
           ) -> Iterator[Server]:
    workdir: Path = tmp_path_factory.mktemp(f"limits-{request.param}")
    url = migrated_sqlite_url(workdir)
    cluster = Cluster(server_env(
        url,
        SPIDER_WS_ALLOWED_ORIGINS='["https://spider.example"]',
        SPIDER_WS_MAX_CONNECTIONS_PER_PLAYER="2",
        SPIDER_WS_ACTIONS_PER_SECOND="5",
        SPIDER_WS_ACTION_BURST=str(BURST),
        SPIDER_WS_IMPLEMENTATION=request.param,
        SPIDER_WS_PING_INTERVAL="0.5",
        SPIDER_WS_PING_TIMEOUT="0.5",
    ), workdir)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@pytest.fixture
def player(server: Server) -> Account:
    with httpx.Client(base_url=server.http) as http:
        return signup(http, f"p{os.urandom(4).hex()}")


def gauge(server: Server) -> float:
    text = httpx.get(f"{server.http}/metrics").text
    found = re.search(r"^spider_ws_connections (\S+)$", text, re.MULTILINE)
    assert found is not None
    return float(found.group(1))


def test_a_foreign_browser_origin_is_refused_before_the_handshake(
    server: Server, player: Account
) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws}/ws", origin="https://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    client = SyncClient.open(server.ws, player, Origin="https://spider.example")
    client.close()
    own_host = SyncClient.open(server.ws, player, Origin=f"http://127.0.0.1:{server.port}")
    own_host.close()


def test_a_player_holds_at_most_the_allowed_connections(server: Server, player: Account) -> None:
    first, second = SyncClient.open(server.ws, player), SyncClient.open(server.ws, player)
    try:
        with connect(f"{server.ws}/ws") as third:
            third.send(f'{{"type": "hello", "v": 1, "token": "{player.token}"}}')
            answer = json.loads(third.recv(timeout=5))
            assert answer["type"] == "error" and answer["code"] == "too_many_connections"
            with pytest.raises(ConnectionClosed) as closed:
                third.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert first.request({"type": "ping"}, "pong") == {"type": "pong"}
    finally:
        first.close()
        second.close()
    again = SyncClient.open(server.ws, player)  # slots come back when sockets close
    again.close()


def test_a_flood_is_answered_with_rate_limited_and_then_served_again(
    server: Server, player: Account
) -> None:
    client = SyncClient.open(server.ws, player)
    try:
        for _ in range(30):
            client.send({"type": "ping"})
        answers = [client.recv(timeout=5) for _ in range(30)]
        kinds = [a["type"] if a["type"] == "pong" else a["code"] for a in answers]
        assert kinds.count("pong") >= 10  # the burst
        assert "rate_limited" in kinds
        time.sleep(1.0)
        assert client.request({"type": "ping"}, "pong", "error") == {"type": "pong"}
    finally:
        client.close()


def test_a_flood_gets_every_refusal_said_and_then_the_close(
    server: Server, player: Account
) -> None:
    # 120 frames at once: the burst is served, then each frame is refused with
    # rate_limited until MAX_STRIKES refusals in a row close the socket with 1008. Every
    # one of those answers is sent before the close, on either path (the stock path once
    # closed first and lost the refusals).
    with connect(f"{server.ws}/ws") as raw:
        raw.send(f'{{"type": "hello", "v": 1, "token": "{player.token}"}}')
        for _ in range(120):
            raw.send('{"type": "ping"}')
        kinds: list[str] = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                frame = json.loads(raw.recv(timeout=5))
                kinds.append(frame["type"] if frame["type"] != "error" else frame["code"])
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    answers = [k for k in kinds if k in ("pong", "rate_limited")]
    assert answers[:BURST] == ["pong"] * BURST
    assert answers[-MAX_STRIKES:] == ["rate_limited"] * MAX_STRIKES
    assert len(answers) <= 120  # a token may drip in meanwhile, and answer one more pong


def test_a_peer_that_stops_answering_pings_is_dropped(server: Server, player: Account) -> None:
    before = gauge(server)
    # A raw socket: it completes the handshake and says hello, then never reads again,
    # so it never answers a ping (a vanished phone, a dead NAT entry).
    raw = socket.create_connection(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall((
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode())
    assert b"101" in raw.recv(1024).split(b"\r\n")[0]
    hello = f'{{"type":"hello","v":1,"token":"{player.token}"}}'.encode()
    mask = os.urandom(4)
    size = bytes([0x80 | len(hello)]) if len(hello) < 126 else bytes([0x80 | 126]) + len(
        hello).to_bytes(2, "big")  # a token makes the hello longer than 125 bytes
    raw.sendall(bytes([0x81]) + size + mask
                + bytes(b ^ mask[i % 4] for i, b in enumerate(hello)))
    deadline = time.monotonic() + 5
    while gauge(server) < before + 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gauge(server) == before + 1
    deadline = time.monotonic() + 10
    while gauge(server) > before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert gauge(server) == before  # shed by ping/pong, ~interval + timeout
    raw.close()
