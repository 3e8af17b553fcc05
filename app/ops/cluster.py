"""`spider cluster`: N worker processes behind HAProxy on one machine.

The workers are `spider serve` processes (app/ops/serve.py) on consecutive ports, sharing
the configured PostgreSQL and Redis (``PUBSUB_BACKEND=redis`` is forced: several
processes need it). HAProxy runs with ``deploy/haproxy.cfg``, whose worker list
(between ``BEGIN workers`` and ``END workers``) is rewritten for the workers started
here; every other line is the file as committed, the one to install on a real balancer
(docs/operations.md, "Across machines").

A worker that dies is started again after a second, as systemd would
(deploy/systemd/spider-worker@.service). Ctrl-C or SIGTERM stops HAProxy first (no new
connections), then the workers (they close their sockets with 1012).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
HAPROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"
BEGIN, END = "# BEGIN workers", "# END workers"
RESTART_AFTER_SECONDS = 1.0


class ClusterError(RuntimeError):
    """The cluster cannot start: what is missing, said in one line."""


def render_haproxy(template: str, workers: list[str]) -> str:
    """``template`` with its worker list replaced by one ``server`` line per address."""
    lines = template.splitlines()
    try:
        begin = next(i for i, line in enumerate(lines) if line.strip() == BEGIN)
        end = next(i for i, line in enumerate(lines) if line.strip() == END)
    except StopIteration:
        raise ClusterError(f"the HAProxy template has no {BEGIN!r} ... {END!r} block") from None
    indent = lines[begin][: len(lines[begin]) - len(lines[begin].lstrip())]
    servers = [f"{indent}server w{n} {address}" for n, address in enumerate(workers, 1)]
    return "\n".join([*lines[: begin + 1], *servers, *lines[end:]]) + "\n"


def haproxy_binary() -> str:
    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
    if found is None:
        raise ClusterError("haproxy is not installed: `make haproxy` (apt-get install haproxy)")
    return found


def start_haproxy(*, workers: list[str], bind: str, workdir: Path,
                  template: Path = HAPROXY_CONFIG) -> subprocess.Popen[bytes]:
    """HAProxy in the foreground with ``template`` for ``workers``, listening on ``bind``;
    its configuration and log in ``workdir``. Returns once it accepts connections."""
    config = workdir / "haproxy.cfg"
    config.write_text(render_haproxy(template.read_text(), workers))
    log = (workdir / "haproxy.log").open("wb")
    process = subprocess.Popen(
        [haproxy_binary(), "-db", "-f", str(config)],
        env={**os.environ, "SPIDER_LB_BIND": bind},
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    host, _, port = bind.rpartition(":")
    _wait_listening(process, host or "127.0.0.1", int(port), workdir / "haproxy.log")
    return process


def _wait_listening(process: subprocess.Popen[bytes], host: str, port: int, log: Path,
                    timeout: float = 15.0) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ClusterError(f"haproxy exited: {log.read_text(errors='replace')[-500:]}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return
        time.sleep(0.05)
    raise ClusterError(f"haproxy not listening on {host}:{port} after {timeout}s")


@dataclass
class Worker:
    port: int
    log_path: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.ops.serve"], cwd=ROOT,
            env={**self.env, "SPIDER_HOST": "127.0.0.1", "SPIDER_PORT": str(self.port)},
            stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # a Ctrl-C reaches the supervisor, which stops it in turn
        )

    def dead(self) -> bool:
        return self.process is None or self.process.poll() is not None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class LocalCluster:
    """Workers on ``first_port``, ``first_port + 1``, … behind HAProxy on ``port``."""

    workers: int
    port: int
    first_port: int
    workdir: Path
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    host: str = "127.0.0.1"  # where HAProxy listens: this machine only, unless told
    _workers: list[Worker] = field(default_factory=list)
    _balancer: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**self.env, "SPIDER_PUBSUB_BACKEND": "redis"}
        if "postgresql" not in env.get("SPIDER_DATABASE_URL", ""):
            raise ClusterError("several workers need PostgreSQL: set SPIDER_DATABASE_URL="
                               "postgresql+asyncpg://user@host/db")
        self._workers = [Worker(self.first_port + n, self.workdir / f"worker-{n + 1}.log", env)
                         for n in range(self.workers)]
        for worker in self._workers:
            worker.start()
        self.wait_ready()
        self._balancer = start_haproxy(workers=[w.address for w in self._workers],
                                       bind=f"{self.host}:{self.port}", workdir=self.workdir)

    def worker_process(self, index: int) -> subprocess.Popen[bytes]:
        """The running process of worker ``index`` (from 0): a failover bench kills it."""
        process = self._workers[index].process
        if process is None:
            raise ClusterError(f"worker {index + 1} is not running")
        return process

    def wait_ready(self) -> None:
        """Every worker answers ``/readyz`` (HAProxy's checks see it within ~2 s: rise 2)."""
        for worker in self._workers:
            _wait_ready(worker)

    def restart_dead(self) -> list[int]:
        """Start again every worker that exited; returns their ports."""
        restarted = []
        for worker in self._workers:
            if worker.dead():
                worker.start()
                restarted.append(worker.port)
        return restarted

    def stop(self) -> None:
        if self._balancer is not None and self._balancer.poll() is None:
            self._balancer.terminate()
            self._balancer.wait(timeout=10)
        for worker in self._workers:
            worker.stop()


def _wait_ready(worker: Worker, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.dead():
            raise ClusterError(f"worker on port {worker.port} exited; see {worker.log_path}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://{worker.address}/readyz", timeout=1.0).status_code == 200:
                return
        time.sleep(0.2)
    raise ClusterError(f"worker on port {worker.port} not ready; see {worker.log_path}")


@contextlib.contextmanager
def _stop_signals() -> Iterator[list[int]]:
    received: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        received.append(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield received
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(*, workers: int, port: int, first_port: int, workdir: Path | None = None,
        host: str = "127.0.0.1") -> None:
    """Start the cluster, keep its workers running, stop everything on SIGINT/SIGTERM.
    HAProxy listens on ``host`` (loopback unless told: ``0.0.0.0`` for every address)."""
    workdir = workdir or Path(tempfile.mkdtemp(prefix="spider-cluster-"))
    workdir.mkdir(parents=True, exist_ok=True)
    cluster = LocalCluster(workers, port, first_port, workdir, host=host)
    with _stop_signals() as received:
        try:
            cluster.start()
            print(f"spider cluster: {workers} workers (ports {first_port}-"
                  f"{first_port + workers - 1}) behind HAProxy on {host}:{port}; logs in {workdir}",
                  flush=True)
            while True:
                time.sleep(RESTART_AFTER_SECONDS)
                if received:
                    break
                for restarted in cluster.restart_dead():
                    print(f"spider cluster: worker on port {restarted} exited; started again",
                          flush=True)
        finally:
            cluster.stop()
