"""The floor harness (bench/floor.py): every primitive measured, nothing left behind."""

import argparse

import uvloop

from bench.floor import run
from tests.support.database import (
    create_pg_database,
    drop_pg_database,
    pg_tables_like,
    pg_url,
)
from tests.support.servers import require_redis


def test_each_primitive_is_timed_and_its_table_dropped() -> None:
    redis_url = require_redis()
    name = create_pg_database()
    url = pg_url(name).replace("+asyncpg", "")
    try:
        args = argparse.Namespace(redis=redis_url, postgres=url, rate=2000.0, count=40)
        results = uvloop.run(run(args))

        left = pg_tables_like(name, "floor_%")
    finally:
        drop_pg_database(name)
    rows = {row["name"]: row for row in results["operations"]}
    assert list(rows) == ["wake", "commit", "redis PING", "redis call", "publish + delivery"]
    assert all(row["cpu_us"] > 0 for row in rows.values())
    # A commit or a Redis round trip costs more than waking up for nothing.
    assert rows["commit"]["cpu_us"] > rows["wake"]["cpu_us"]
    assert rows["redis PING"]["cpu_us"] > rows["wake"]["cpu_us"]
    assert results["commit_call_delivery_cpu_us"] == round(
        rows["commit"]["net_cpu_us"] + rows["redis call"]["net_cpu_us"]
        + results["delivery_net_cpu_us"], 1)
    assert left == []
