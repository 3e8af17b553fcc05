"""The load harness's target when it is a cluster (issue 23, target 7): N `spider serve`
workers behind HAProxy (``app.ops.cluster.LocalCluster``, the machinery of `spider
cluster`), on PostgreSQL and a Redis database of their own.

To the phases of ``bench.load`` it looks like ``bench.server.Server``: the players connect
through the balancer; the CPU and memory are the workers' summed; the metrics are read
from each worker directly (through the balancer a scrape would reach one of them). It
also reads Redis's own accounts (``INFO commandstats``: microseconds spent per command;
``INFO cpu``: the server process's CPU), so that a phase can say what Redis paid per
acknowledged action. Redis's figures are server-wide: run the bench with nothing else
using that Redis.
"""

from __future__ import annotations

import os
import socket
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from app.ops.cluster import LocalCluster
from bench.server import LOOPBACK, cpu_seconds, free_port, rss_bytes


@dataclass(frozen=True)
class RedisAccount:
    """Redis's totals at one moment: command time (µs), command calls, process CPU (s),
    and the calls of each command (where the calls per action go)."""

    command_us: float
    calls: int
    cpu_s: float
    calls_by_command: dict[str, int] = field(default_factory=dict)

    def since(self, before: RedisAccount) -> RedisAccount:
        by_command = {name: calls - before.calls_by_command.get(name, 0)
                      for name, calls in self.calls_by_command.items()}
        return RedisAccount(self.command_us - before.command_us, self.calls - before.calls,
                            self.cpu_s - before.cpu_s,
                            {name: calls for name, calls in by_command.items() if calls})


def redis_account(client: redis.Redis) -> RedisAccount:
    stats: dict[str, Any] = client.info("commandstats")
    cpu: dict[str, Any] = client.info("cpu")
    commands = {k.removeprefix("cmdstat_"): v for k, v in stats.items()
                if k.startswith("cmdstat_")}
    return RedisAccount(
        command_us=float(sum(c["usec"] for c in commands.values())),
        calls=int(sum(c["calls"] for c in commands.values())),
        cpu_s=float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        calls_by_command={name: int(c["calls"]) for name, c in commands.items()})


def _consecutive_ports(count: int) -> int:
    """A first port whose next ``count - 1`` are free too (the workers' ports)."""
    for _ in range(100):
        first = free_port()
        try:
            for offset in range(1, count):
                with socket.socket() as probe:
                    probe.bind((LOOPBACK, first + offset))
        except OSError:
            continue
        return first
    raise RuntimeError(f"no {count} consecutive free ports")


@dataclass
class ClusterTarget:
    cluster: LocalCluster
    redis: redis.Redis

    @classmethod
    def start(cls, *, workers: int, env: dict[str, str], redis_url: str) -> ClusterTarget:
        client = redis.Redis.from_url(redis_url)
        client.flushdb()  # a database of its own: nothing left from another run
        workdir = Path(tempfile.mkdtemp(prefix="bench-load-cluster-"))
        cluster = LocalCluster(workers, free_port(), _consecutive_ports(workers), workdir,
                               env={**os.environ, **env, "SPIDER_REDIS_URL": redis_url})
        cluster.start()
        return cls(cluster, client)

    def stop(self) -> None:
        self.cluster.stop()

    @property
    def http(self) -> str:
        return f"http://{LOOPBACK}:{self.cluster.port}"

    @property
    def ws(self) -> str:
        return f"ws://{LOOPBACK}:{self.cluster.port}"

    @property
    def metrics_urls(self) -> list[str]:
        return [f"http://{LOOPBACK}:{self.cluster.first_port + n}"
                for n in range(self.cluster.workers)]

    def _pids(self) -> list[int]:
        return [self.cluster.worker_process(n).pid for n in range(self.cluster.workers)]

    @property
    def rss(self) -> int:
        return sum(rss_bytes(pid) for pid in self._pids())

    @property
    def cpu_s(self) -> float:
        return sum(cpu_seconds(pid) for pid in self._pids())

    def redis_account(self) -> RedisAccount:
        return redis_account(self.redis)

    @property
    def log_path(self) -> Path:
        return self.cluster.workdir
