"""The requests' solver calls in child processes (app/runtime/solver_worker.py)."""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from app.engine.game import replay
from app.engine.solver.advice import hint as visible_hint
from app.rewards.assist import auto_complete, rescue_actions
from app.rewards.guide import rescue_on_line
from app.rewards.solo import SoloOptions, daily_game, solo_start
from app.runtime import solver_worker
from app.services.deals import daily_choice, rated_search
from app.settings import Settings
from tests.support.orphans import kill_server_under_its_child
from tests.support.solo import one_suit


@pytest.fixture
def processes() -> Iterator[solver_worker.SolverProcesses]:
    """This test's own pool, installed; the process's pool is stopped before and after."""
    solver_worker.shutdown(wait=True)
    solver_worker.install(1)
    pool = solver_worker.installed()
    assert pool is not None
    try:
        yield pool
    finally:
        solver_worker.shutdown()


def sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


async def test_without_a_pool_a_call_runs_on_a_thread_of_this_process() -> None:
    solver_worker.shutdown()
    assert solver_worker.installed() is None
    assert await solver_worker.off_loop(sleep_then_pid, 0) == os.getpid()


async def test_with_a_pool_a_call_runs_in_a_child_process(
    processes: solver_worker.SolverProcesses,
) -> None:
    child = await solver_worker.off_loop(sleep_then_pid, 0)
    assert child != os.getpid()
    assert len(multiprocessing.active_children()) == 1
    assert await solver_worker.off_loop(sleep_then_pid, 0) == child  # kept, not respawned


def _solver_calls() -> list[tuple[str, Any, tuple[Any, ...], dict[str, Any]]]:
    """Every kind of call the server sends to the pool, on real inputs."""
    start, line = one_suit(3)
    near_end = replay(start.state, line[:-12])
    return [
        ("hint", visible_hint, (start.state,), {}),
        ("rescue", rescue_actions, (start.state,), {"nodes": 20_000}),
        ("auto_complete", auto_complete, (near_end,), {}),
        ("rescue on the deal's line", rescue_on_line, (start.state, (3, 1)), {"nodes": 20_000}),
        ("solo_start", solo_start, (12, SoloOptions(2)), {}),
        ("daily_game", daily_game, (date(2026, 12, 1),), {}),
        ("daily_choice", daily_choice, (date(2026, 12, 1),), {}),
        ("rated_search", rated_search, (1, "any"), {"wait_seconds": 30.0}),
    ]


async def test_every_kind_of_call_answers_in_a_child_as_on_a_thread(
    processes: solver_worker.SolverProcesses,
) -> None:
    """Positions go there and answers come back by pickling: each call site's answer
    from a child equals the same call's on a thread (a rated search draws at random:
    it is checked for a solved deal only)."""
    for name, call, args, kwargs in _solver_calls():
        in_child = await solver_worker.off_loop(call, *args, **kwargs)
        on_thread = await asyncio.to_thread(call, *args, **kwargs)
        if name == "rated_search":
            assert in_child.choice is not None and in_child.choice.difficulty is not None
        else:
            assert in_child == on_thread, name
    answers = {name: await solver_worker.off_loop(call, *args, **kwargs)
               for name, call, args, kwargs in _solver_calls()[:3]}
    assert answers["hint"].action is not None  # real answers, not refusals, went both ways
    assert answers["rescue"].status == "way_out" and answers["rescue"].actions
    assert answers["auto_complete"].status == "ready" and answers["auto_complete"].actions
    assert len(multiprocessing.active_children()) == 1


async def test_a_child_that_dies_mid_call_costs_a_respawn_not_the_answer(
    processes: solver_worker.SolverProcesses,
) -> None:
    first = await solver_worker.off_loop(sleep_then_pid, 0)
    call = asyncio.ensure_future(solver_worker.off_loop(sleep_then_pid, 1.0))
    await asyncio.sleep(0.3)  # the call is running in the child
    os.kill(first, signal.SIGKILL)
    second = await asyncio.wait_for(call, timeout=60)
    assert second != first
    assert len(multiprocessing.active_children()) == 1


async def test_installs_nest_and_the_children_outlive_an_uninstall() -> None:
    solver_worker.shutdown()
    try:
        solver_worker.install(1)
        pool = solver_worker.installed()
        solver_worker.install(1)  # a second app of the same process
        solver_worker.uninstall()
        assert solver_worker.installed() is pool  # the first app still sends calls there
        child = await solver_worker.off_loop(sleep_then_pid, 0)
        solver_worker.uninstall()
        assert solver_worker.installed() is None
        assert await solver_worker.off_loop(sleep_then_pid, 0) == os.getpid()
        solver_worker.install(1)  # the next app finds the same child, already spawned
        assert await solver_worker.off_loop(sleep_then_pid, 0) == child
    finally:
        solver_worker.shutdown()


def test_a_pool_needs_a_whole_number_of_processes() -> None:
    for size in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="at least one process"):
            solver_worker.SolverProcesses(size)  # type: ignore[arg-type]


def test_the_server_solves_in_child_processes_by_default() -> None:
    assert Settings().solver_processes == 2


PARENT = """
import asyncio, os, sys, time
from app.runtime import solver_worker

async def main():
    solver_worker.install(1)
    print(await solver_worker.off_loop(os.getpid), flush=True)
    time.sleep(60)

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_solver_process_exits_when_its_server_is_killed(tmp_path: Path) -> None:
    """A server killed with SIGKILL cannot stop its children: they notice and exit."""
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    orphaned = kill_server_under_its_child(script, settle_s=0, wait_s=30)
    assert orphaned.gone
    # Quietly: the children and multiprocessing's resource tracker share the server's
    # stderr (its log), and hold it open until they have exited.
    said = orphaned.stderr
    assert "leaked semaphore" not in said and "Traceback" not in said, said


def test_a_child_whose_server_is_gone_writes_nothing_to_stderr() -> None:
    written = io.StringIO()
    quiet = solver_worker._QuietOrphan(written, os.getppid())
    quiet.write("while my server lives\n")
    orphan = solver_worker._QuietOrphan(written, os.getppid() + 1)  # another parent
    assert orphan.write("BrokenPipeError: [Errno 32] Broken pipe\n") == 40
    orphan.flush()
    assert written.getvalue() == "while my server lives\n"
