"""Graceful shutdown of a real uvicorn process: SIGTERM closes sockets, flushes the log."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.support.database import sqlite_url, upgrade

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60  # a loaded CI machine imports slowly: readiness, not speed
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(process.stderr.read().decode() if process.stderr else "exited")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=0.5).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise TimeoutError("server did not start")


@pytest.fixture
def server(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    database = sqlite_url(tmp_path / "ops.db")
    upgrade(database)  # the app's lifespan restores matches: it needs the schema
    env = {
        **os.environ,
        "SPIDER_DATABASE_URL": database,
        "SPIDER_LOG_FORMAT": "json",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tests.ops.socket_app:app", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_ready(port, process)
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


def test_sigterm_closes_open_sockets_with_1012_and_logs_a_clean_stop(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    process, port = server
    with connect(f"ws://127.0.0.1:{port}/test-echo") as ws:
        ws.send("ping")
        assert ws.recv(timeout=5) == "ping"
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics").text
        assert "spider_ws_connections 1.0" in metrics
        process.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1012
    # uvicorn re-raises the signal once its graceful shutdown is complete.
    assert process.wait(timeout=15) in (0, -signal.SIGTERM)
    assert process.stderr is not None
    text = process.stderr.read().decode().splitlines()
    # uvicorn's CLI prints its first lines in its own format; from the app's start on,
    # every line is one JSON object.
    first = next(i for i, line in enumerate(text) if '"msg":"started"' in line)
    lines = [json.loads(line) for line in text[first:]]
    messages = [line["msg"] for line in lines]
    assert "started" in messages
    assert messages.index("stopped") > messages.index("started")
    stopped = lines[messages.index("stopped")]
    assert stopped["drained"] is True
    access = [line for line in lines if line["logger"] == "spider.access"]
    assert access == []  # probes and /metrics are not access-logged


def test_spider_serve_stops_its_solver_children_without_leaking_semaphores(
    tmp_path: Path,
) -> None:
    """The deal pool's child process (a solve in progress is killed at stop) left the
    semaphores of its queues to the interpreter's exit: "resource_tracker: There appear
    to be 6 leaked semaphore objects to clean up at shutdown"."""
    port = free_port()
    database = sqlite_url(tmp_path / "serve.db")
    upgrade(database)
    env = {**os.environ, "SPIDER_DATABASE_URL": database, "SPIDER_PORT": str(port),
           "SPIDER_DEAL_POOL_SIZE": "1", "SPIDER_DEAL_POOL_RATED_SIZE": "1",
           "SPIDER_DEAL_POOL_WORKER": "process"}
    process = subprocess.Popen([sys.executable, "-m", "app.ops.serve"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_ready(port, process)
        # And a request's solver call (a solo game dealt, in a solver process): at stop
        # the tracker that the deal pool's child started said its 5 semaphores leaked.
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            token = http.post("/api/players", json={"name": "stopper"}).json()["token"]
            dealt = http.post("/api/solo/games", json={"number": 5, "options": {"suits": 1}},
                              headers={"Authorization": f"Bearer {token}"})
            assert dealt.status_code == 201, dealt.text
        time.sleep(1)  # the child is up and solving
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) in (0, -signal.SIGTERM)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
    assert process.stderr is not None
    said = process.stderr.read().decode()
    assert '"msg":"stopped"' in said  # the app's stop ran: the pool was stopped there
    assert "leaked" not in said, said[-2000:]
