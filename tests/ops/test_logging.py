"""Structured JSON logs with request, game and player ids."""

import json
import logging

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from app.ops import context
from app.ops.logging import JsonFormatter
from app.settings import Settings


def record(msg: str, **extra: object) -> logging.LogRecord:
    rec = logging.LogRecord("spider.test", logging.INFO, __file__, 1, msg, None, None)
    for key, value in extra.items():
        setattr(rec, key, value)
    return rec


def test_a_line_is_one_json_object_with_level_logger_and_message() -> None:
    line = JsonFormatter().format(record("hello"))
    entry = json.loads(line)
    assert "\n" not in line
    assert entry["level"] == "info"
    assert entry["logger"] == "spider.test"
    assert entry["msg"] == "hello"
    assert entry["ts"].endswith("Z")


def test_game_and_player_ids_bound_in_context_appear_on_every_line() -> None:
    with context.bound(game=42, player="p-7"):
        entry = json.loads(JsonFormatter().format(record("move")))
    assert entry["game_id"] == "42"
    assert entry["player_id"] == "p-7"
    after = json.loads(JsonFormatter().format(record("later")))
    assert "game_id" not in after


def test_extra_fields_are_kept_and_odd_values_do_not_break_the_line() -> None:
    entry = json.loads(JsonFormatter().format(record("x", seq=5, weird=object())))
    assert entry["seq"] == 5
    assert entry["weird"].startswith("<object")


def test_exceptions_are_logged_with_their_traceback() -> None:
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        rec = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    entry = json.loads(JsonFormatter().format(rec))
    assert "RuntimeError: boom" in entry["exc"]


@pytest.fixture
def app() -> FastAPI:
    return create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))


async def test_each_request_gets_an_id_echoed_in_the_response_and_logged(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[str | None] = []

    @app.get("/probe-id")
    async def probe() -> dict[str, str]:
        seen.append(context.request_id.get())
        return {}

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        with caplog.at_level(logging.INFO, logger="spider.access"):
            first = await client.get("/probe-id")
            second = await client.get("/probe-id", headers={"X-Request-ID": "lb-123"})
            forged = await client.get("/probe-id", headers={"X-Request-ID": "bad id\twith tab"})
    assert first.headers["x-request-id"] == seen[0]
    assert len(seen[0] or "") == 32
    assert second.headers["x-request-id"] == "lb-123" == seen[1]
    assert forged.headers["x-request-id"] != "bad id\twith tab"
    access = [r for r in caplog.records if r.name == "spider.access"]
    assert [getattr(r, "status", None) for r in access] == [200, 200, 200]
