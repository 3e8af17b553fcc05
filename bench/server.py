"""Start and stop server processes for the harness: loopback only, fresh database."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return int(s.getsockname()[1])


def rss_bytes(pid: int) -> int:
    """Resident memory of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    @property
    def http(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://{LOOPBACK}:{self.port}"

    @property
    def metrics_urls(self) -> list[str]:
        return [self.http]

    @property
    def rss(self) -> int:
        return rss_bytes(self.process.pid)

    @property
    def cpu_s(self) -> float:
        return cpu_seconds(self.process.pid)

    def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited; see {self.log_path}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/readyz", timeout=1.0).status_code == 200:
                    return
            time.sleep(0.1)
        raise TimeoutError(f"server not ready after {timeout}s; see {self.log_path}")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def start_server(
    *, env: dict[str, str], log_path: Path, port: int | None = None, nofile: int = 0,
    module: str = "app.ops.serve",
) -> Server:
    """``python -m <module>``: ``spider serve``'s entry point, or another that ends there."""
    port = port or free_port()
    full_env = {
        **os.environ,
        "SPIDER_HOST": LOOPBACK,
        "SPIDER_PORT": str(port),
        "SPIDER_LOG_LEVEL": "WARNING",
        **env,
    }
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", module],
        cwd=ROOT,
        env=full_env,
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=(lambda: raise_nofile(nofile)) if nofile else None,
    )
    server = Server(process=process, port=port, log_path=log_path)
    server.wait_ready()
    return server


def raise_nofile(wanted: int) -> int:
    """Raise this process's open-file limit toward `wanted` (capped by the hard limit)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(wanted, hard) if hard != resource.RLIM_INFINITY else wanted
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return max(target, soft)


@contextlib.contextmanager
def running(**kwargs: object) -> Iterator[Server]:
    server = start_server(**kwargs)  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()
