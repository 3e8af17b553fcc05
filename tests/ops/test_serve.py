"""`spider serve` hands the operational settings to uvicorn; the echo baseline is opt-in."""

import gc
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.ops.serve import GC_THRESHOLDS, settle_memory, uvicorn_config
from app.settings import Settings
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


def test_the_server_freezes_what_start_up_built_and_collects_young_objects_less_often(
) -> None:
    thresholds = gc.get_threshold()
    try:
        settle_memory("app.main")
        assert gc.get_freeze_count() > 10_000  # modules, routes, models, schemas
        assert gc.get_threshold() == GC_THRESHOLDS
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
