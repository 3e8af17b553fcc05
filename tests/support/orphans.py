"""A server SIGKILLed under its child processes: start it, kill it, see what its child does.

Shared by the solver children's test (tests/runtime/test_solver_worker.py) and the deal
pool's (tests/services/test_deal_pool.py): each writes a server script that prints its
child's pid, then sleeps until killed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@dataclass(frozen=True)
class Orphaned:
    child: int
    gone: bool  # whether the child had ended by the deadline
    stderr: str  # what the server and its children wrote there, until they all ended


def kill_server_under_its_child(script: Path, *, settle_s: float, wait_s: float) -> Orphaned:
    """Run ``script``, read its child's pid, let it work ``settle_s``, SIGKILL the server,
    and wait up to ``wait_s`` for the child to end."""
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=CHECKOUT)
    try:
        assert server.stdout is not None
        child = int(server.stdout.readline())
        time.sleep(settle_s)
        assert alive(child)
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + wait_s
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    gone = not alive(child)
    assert server.stderr is not None
    return Orphaned(child, gone, server.stderr.read() if gone else "")
