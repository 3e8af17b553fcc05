"""Every benchmark still imports, and the Redis one runs its scripts: a benchmark that
broke when the code moved (bench.redis_streams imported a script from its old module)
would only be found the day someone needs its figures."""

from __future__ import annotations

import argparse
import asyncio
import importlib
from pathlib import Path

import pytest

from bench.redis_streams import run
from tests.support.servers import require_redis

BENCH = Path(__file__).resolve().parents[2] / "bench"
MODULES = sorted(p.stem for p in BENCH.glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("name", MODULES)
def test_the_benchmark_imports(name: str) -> None:
    importlib.import_module(f"bench.{name}")


def test_the_redis_benchmark_measures_both_scripts() -> None:
    args = argparse.Namespace(url=require_redis(), seconds=0.05, batch=5, retention=20)
    results = asyncio.run(run(args))
    assert results["appends_per_s"] > 0 and results["publishes_per_s"] > 0
    # 20 kept frames of ~1 KB: the stream's memory per event is at least the frame's size.
    assert results["bytes_per_kept_event"] >= results["frame_bytes"]
