"""Real server processes for the scale tests: one on SQLite, or several on a fresh
PostgreSQL database sharing the real Redis. Loopback only."""

from __future__ import annotations

import concurrent.futures
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.ops.cluster import start_haproxy
from bench.server import LOOPBACK, Server, free_port, start_server
from tests.support.database import (
    drop_pg_database,
    migrated_pg_database,
    migrated_sqlite_url,
    pg_url,
)
from tests.support.servers import require_redis, unavailable

SECRET = "scale-test-secret"
# `spider serve` serving the testing app: test layouts (short clocks) for the crash tests.
SERVE = "tests.support.testing_serve"


TRANSPORTS = ("lean", "websockets-sansio")
"""The two WebSocket paths a server may take (``SPIDER_WS_IMPLEMENTATION``): the lean one
(app/runtime/lean_ws.py, the default) and uvicorn's stock one (what a server takes with
releases lean_ws.py was not written for). Tests of the transport's contract run on both.
"""


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    return {
        "SPIDER_DATABASE_URL": database_url,
        "SPIDER_SECRET_KEY": SECRET,
        "SPIDER_PLAYER_CREATE_BURST": "100000",
        "SPIDER_PLAYER_CREATE_PER_MINUTE": "100000",
        "SPIDER_LOG_LEVEL": "INFO",
        # Bots play flat out; the rate limit has its own tests (tests/api/test_ws_limits.py).
        "SPIDER_WS_ACTIONS_PER_SECOND": "100000",
        "SPIDER_WS_ACTION_BURST": "100000",
        **extra,
    }


@dataclass
class Cluster:
    """Server processes sharing one database (and Redis when there are several)."""

    env: dict[str, str]
    workdir: Path
    servers: list[Server] = field(default_factory=list)
    balancer: subprocess.Popen[bytes] | None = None
    balancer_port: int = 0

    @property
    def http(self) -> str:
        """The balancer's address (deploy/haproxy.cfg in front of every server)."""
        return f"http://{LOOPBACK}:{self.balancer_port}"

    @property
    def ws(self) -> str:
        return f"ws://{LOOPBACK}:{self.balancer_port}"

    def balance(self) -> None:
        """HAProxy with the repository's configuration in front of the servers started."""
        if shutil.which("haproxy") is None and shutil.which("haproxy", path="/usr/sbin") is None:
            unavailable("haproxy is not installed (make haproxy); the failover test needs it")
        self.balancer_port = free_port()
        self.balancer = start_haproxy(
            workers=[f"{LOOPBACK}:{server.port}" for server in self.servers],
            bind=f"{LOOPBACK}:{self.balancer_port}", workdir=self.workdir,
        )

    def start(self, *, port: int | None = None) -> Server:
        index = len(self.servers)
        server = start_server(
            env=self.env, log_path=self.workdir / f"server-{index}.log", port=port,
            module=SERVE,
        )
        self.servers.append(server)
        return server

    def start_together(self, count: int) -> list[Server]:
        """``count`` servers started at once, as ``spider cluster`` starts its workers:
        each waits for its own /readyz, so one after the other cost a start-up each."""
        first = len(self.servers)
        with concurrent.futures.ThreadPoolExecutor(max_workers=count) as pool:
            starting = [pool.submit(start_server, env=self.env, module=SERVE,
                                    log_path=self.workdir / f"server-{first + i}.log")
                        for i in range(count)]
            concurrent.futures.wait(starting)
        started = [future.result() for future in starting if future.exception() is None]
        self.servers.extend(started)  # stopped with the cluster, even if another failed
        errors = [error for future in starting if (error := future.exception()) is not None]
        if errors:
            raise errors[0]
        return started

    def restart(self, index: int, sig: int) -> Server:
        """Stop server `index` with `sig` and start a new one on the same port."""
        old = self.servers[index]
        old.stop(sig)
        new = start_server(
            env=self.env, log_path=self.workdir / f"server-{index}-again.log", port=old.port,
            module=SERVE,
        )
        self.servers[index] = new
        return new

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in self.workdir.glob("*.log"))

    def stop(self) -> None:
        if self.balancer is not None and self.balancer.poll() is None:
            self.balancer.terminate()
            self.balancer.wait(timeout=10)
        for server in self.servers:
            server.stop()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Cluster]:
    """One process on a migrated SQLite file, in-memory pub/sub."""
    url = migrated_sqlite_url(tmp_path)
    cluster = Cluster(server_env(url), tmp_path)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_cluster(tmp_path: Path) -> Iterator[Cluster]:
    """Two processes on a fresh PostgreSQL database (dropped after) and the real Redis."""
    yield from pg_cluster_on(tmp_path)


@pytest.fixture
def quick_pg_cluster(tmp_path: Path) -> Iterator[Cluster]:
    """`pg_cluster` with short presence bounds, a fast sweeper and test layouts (short
    clocks), so crash tests take seconds."""
    yield from pg_cluster_on(tmp_path, **QUICK)


QUICK = {
    "SPIDER_PRESENCE_TTL_SECONDS": "1.5",
    "SPIDER_PRESENCE_HEARTBEAT_SECONDS": "0.3",
    "SPIDER_OVERDUE_SWEEP_SECONDS": "0.5",
}


@pytest.fixture
def balanced_pg_cluster(tmp_path: Path) -> Iterator[Cluster]:
    """`quick_pg_cluster` behind HAProxy (deploy/haproxy.cfg): clients use `cluster.ws`."""
    for cluster in pg_cluster_on(tmp_path, **QUICK):
        cluster.balance()
        yield cluster


def pg_cluster_on(tmp_path: Path, redis_url: str | None = None, **extra: str
                  ) -> Iterator[Cluster]:
    """Two workers on a fresh PostgreSQL database and ``redis_url`` (the shared Redis)."""
    redis_url = redis_url or require_redis()
    name = migrated_pg_database()
    try:
        url = pg_url(name)
        env = server_env(
            url,
            SPIDER_PUBSUB_BACKEND="redis",
            SPIDER_REDIS_URL=redis_url,
            # Every test run speaks on its own Redis channels (the Redis is shared).
            SPIDER_REDIS_CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}:",
            **extra,
        )
        cluster = Cluster(env, tmp_path)
        try:
            cluster.start_together(2)
            yield cluster
        finally:
            cluster.stop()
    finally:
        drop_pg_database(name)
