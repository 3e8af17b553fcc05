"""A Redis server of the test's own, on a free loopback port, that a test may stop and
start again (the Redis at 6379 is shared: never restarted by a test).

No persistence (``--save ''``, no append-only file): a restart is a Redis that lost
everything, as the issue's outage did."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.servers import unavailable

LOOPBACK = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


class OwnRedis:
    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            unavailable("redis-server is not installed (apt-get install redis-server)")
        self.binary = str(binary)
        self.workdir = workdir
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def start(self) -> None:
        with (self.workdir / "redis.log").open("ab") as out:
            self.process = subprocess.Popen(
                [self.binary, "--port", str(self.port), "--bind", LOOPBACK,
                 "--save", "", "--appendonly", "no", "--dir", str(self.workdir)],
                stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((LOOPBACK, self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.02)
        raise RuntimeError(f"redis-server did not start on {self.port}")

    def stop(self) -> None:
        """Gone at once, as a crashed or restarting Redis (every connection dropped)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a paused one dies too
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def pause(self) -> None:
        """Hung, not gone: connections stay open and nothing answers (SIGSTOP), as a Redis
        stuck on a slow disk or behind a partition."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
