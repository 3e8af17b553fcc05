"""`spider serve` hands the operational settings to uvicorn; the echo baseline is opt-in."""

import asyncio
import contextlib
import gc
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.main import create_app
from app.ops.serve import settle_memory, uvicorn_config
from app.settings import Settings
from bench.server import start_server
from tests.support.database import sqlite_url, upgrade


def test_uvicorn_gets_ping_timeouts_frame_cap_and_no_compression() -> None:
    config = uvicorn_config(
        Settings(port=9123, ws_ping_interval=5, ws_ping_timeout=3, ws_protocol_max_bytes=4096)
    )
    assert config.port == 9123
    assert (config.ws_ping_interval, config.ws_ping_timeout) == (5, 3)
    assert config.ws_max_size == 4096
    assert config.ws_per_message_deflate is False
    assert config.access_log is False


def test_the_server_freezes_what_start_up_built_and_sets_the_collector_s_thresholds(
) -> None:
    thresholds = gc.get_threshold()
    try:
        settle_memory("app.main", Settings().gc_thresholds)
        assert gc.get_freeze_count() > 10_000  # modules, routes, models, schemas
        assert gc.get_threshold() == (100, 1, 20000)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_the_echo_endpoint_exists_only_when_asked_for(tmp_path: Path) -> None:
    memory = sqlite_url(tmp_path / "spider.db")
    upgrade(memory)  # the app's lifespan restores matches: it needs the schema
    with_echo = TestClient(create_app(Settings(database_url=memory, bench_echo=True)))
    with with_echo, with_echo.websocket_connect("/bench/echo") as ws:
        ws.send_text('{"n":1}')
        assert ws.receive_text() == '{"n":1}'
    without = TestClient(create_app(Settings(database_url=memory)))
    with without, pytest.raises(WebSocketDisconnect), without.websocket_connect("/bench/echo"):
        pass


def test_spider_serve_runs_the_lean_websocket_protocol_by_default() -> None:
    from app.runtime.lean_ws import LeanWebSocketProtocol

    assert uvicorn_config(Settings()).ws is LeanWebSocketProtocol
    assert uvicorn_config(Settings(ws_implementation="wsproto")).ws == "wsproto"


async def test_the_light_queue_and_event_behave_like_asyncio_s() -> None:
    from app.runtime.lean_ws import LightEvent
    from app.runtime.light_queue import LightQueue

    queue = LightQueue()
    getter = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait(1)
    queue.put_nowait(2)
    assert await getter == 1 and queue.qsize() == 1 and not queue.empty()
    assert await queue.get() == 2 and queue.empty()
    cancelled = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.sleep(0)
    queue.put_nowait(3)  # not lost to the cancelled get
    assert await asyncio.wait_for(queue.get(), 1) == 3

    event = LightEvent()
    waiter = asyncio.create_task(event.wait())
    await asyncio.sleep(0)
    assert not waiter.done() and not event.is_set()
    event.set()
    await asyncio.wait_for(waiter, 1)
    event.clear()
    assert not event.is_set()


async def test_a_real_server_with_the_lean_protocol_speaks_and_closes_with_1012(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path / "spider.db")
    await asyncio.to_thread(upgrade, url)  # runs its own event loop
    env = {"SPIDER_DATABASE_URL": url, "SPIDER_BENCH_ECHO": "true",
           "SPIDER_WS_IMPLEMENTATION": "lean", "SPIDER_WS_PING_INTERVAL": "0.2"}
    server = await asyncio.to_thread(start_server, env=env, log_path=tmp_path / "server.log")
    try:
        async with connect(f"{server.ws}/bench/echo") as echo, connect(f"{server.ws}/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "v": 1, "token": "forged"}))
            refused = json.loads(await ws.recv())
            assert refused["code"] == "not_authenticated"
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
            for text in ("a", "b" * 5000):
                await echo.send(text)
                assert await echo.recv() == text
            await asyncio.sleep(0.5)  # pinged and answered: still open
            await echo.send("c")
            assert await echo.recv() == "c"
            await asyncio.to_thread(server.stop)
            with pytest.raises(ConnectionClosed) as stopped:
                await echo.recv()
            assert stopped.value.rcvd is not None and stopped.value.rcvd.code == 1012
    finally:
        server.stop()


async def test_the_lean_protocol_s_direct_frames_keep_their_order_and_go_before_a_close(
    tmp_path: Path,
) -> None:
    import random

    import httpx

    from bench.bot import choose
    from bench.client import DuelClient, seat_pair, signup

    url = sqlite_url(tmp_path / "spider.db")
    await asyncio.to_thread(upgrade, url)
    env = {"SPIDER_DATABASE_URL": url, "SPIDER_WS_IMPLEMENTATION": "lean",
           "SPIDER_WS_ACTIONS_PER_SECOND": "1000", "SPIDER_WS_ACTION_BURST": "1000"}
    server = await asyncio.to_thread(start_server, env=env, log_path=tmp_path / "server.log")
    try:
        async with httpx.AsyncClient(base_url=server.http) as http:
            ann, bob = await signup(http, "ann"), await signup(http, "bob")
            match_id = await seat_pair(http, ann, bob)
        a = await DuelClient.open(server.ws, ann)
        b = await DuelClient.open(server.ws, bob)
        view, seq = (await a.open_game(match_id))["view"], 0
        await b.open_game(match_id)
        rng, acks = random.Random(7), 0
        while acks < 15:
            action = choose(view, manual_flip=True, rng=rng) or {"op": "undo"}
            answer, _ = await a.act(match_id, seq + 1, action)
            view = answer["view"]
            seq = answer["seq"] if answer["type"] == "ack" else answer["next_seq"] - 1
            acks += answer["type"] == "ack"
        await asyncio.sleep(0.2)
        numbered = [f["n"] for f in a.frames if "n" in f]
        assert numbered == list(range(numbered[0], numbered[0] + len(numbered)))
        assert [f["seq"] for f in a.frames if f["type"] == "ack"] == list(range(1, seq + 1))
        seen = [f["progress"]["actions"] for f in b.frames
                if f["type"] == "progress" and f["progress"]["player_id"] == ann.id]
        assert seen[-1] == view["actions"] and seen == sorted(seen)

        # Flooding with oversized frames: every refusal is answered, the last one before
        # the close (1008), nothing after it.
        await b.close()
        await a.ws.send("x" * 20_000)
        for _ in range(60):
            with contextlib.suppress(ConnectionClosed):
                await a.ws.send("x" * 20_000)
        with contextlib.suppress(ConnectionClosed):
            await asyncio.wait_for(a._reader, 10) if a._reader else None
        assert a.ws.close_code == 1008
        refused = [f for f in a.frames if f["type"] == "error"]
        assert len(refused) == 50 and a.frames[-1] is refused[-1]
        assert {f["code"] for f in refused} == {"frame_too_large"}
    finally:
        server.stop()


def test_the_lean_protocol_frames_text_as_websockets_does() -> None:
    from websockets.frames import Frame, Opcode

    from app.runtime.lean_ws import text_frame

    for size in (0, 1, 125, 126, 127, 65_535, 65_536, 70_000):
        payload = ("é" * size).encode()[:size]
        expected = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
        assert text_frame(payload) == expected, size
