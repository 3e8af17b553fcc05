"""The load harness's own bookkeeping: the server-side latency shares it prints."""

import time

from bench.load import LATENCY_BUCKET, Phase

METRICS = """\
# HELP spider_action_latency_seconds Time from receiving an action frame to sending its answer.
# TYPE spider_action_latency_seconds histogram
spider_action_latency_seconds_bucket{le="0.001"} 50.0
spider_action_latency_seconds_bucket{le="0.0025"} 180.0
spider_action_latency_seconds_bucket{le="0.005"} 196.0
spider_action_latency_seconds_bucket{le="0.01"} 199.0
spider_action_latency_seconds_bucket{le="+Inf"} 200.0
spider_action_latency_seconds_count 200.0
"""


def test_the_share_of_actions_the_server_answered_slowly_comes_from_its_histogram() -> None:
    buckets = {le: float(n) for le, n in LATENCY_BUCKET.findall(METRICS)}
    assert buckets["0.0025"] == 180.0 and buckets["+Inf"] == 200.0
    phase = Phase("duels human", server_latency=buckets)
    assert phase.server_over_ms() == {"2.5": 10.0, "5.0": 2.0, "10.0": 0.5}
    assert Phase("echo human").server_over_ms() == {}


def test_the_floor_is_the_servers_lone_insert_into_a_table_of_the_logs_shape() -> None:
    # A lone INSERT + COMMIT, as the issue defines the floor, of the server's own row:
    # its unique (game, seq) and foreign key checked on every row; nothing left behind.
    import asyncio

    from bench.load import FLOOR_PARENT, FLOOR_TABLE, commit_phase, floor_ratios
    from tests.support.database import (
        create_pg_database,
        drop_pg_database,
        pg_tables_like,
        pg_url,
        upgrade,
    )

    name = create_pg_database()
    try:
        upgrade(pg_url(name))
        tight = asyncio.run(commit_phase(pg_url(name), 5.0, samples=40))
        paced = asyncio.run(commit_phase(pg_url(name), 5.0, samples=10, pause_s=0.002))
        left = pg_tables_like(name, "bench_%")
    finally:
        drop_pg_database(name)
    assert (tight.name, len(tight.rtts), tight.acks) == ("commit floor", 40, 40)
    assert (paced.name, len(paced.rtts)) == ("commit floor paced", 10)
    assert left == [] and FLOOR_TABLE != FLOOR_PARENT
    by_name = {p.name: p.report() for p in (tight, paced)}
    by_name["echo human"] = {"p50_ms": 0.25, "p99_ms": 0.75}
    by_name["duels human"] = {"p50_ms": 1.0, "p99_ms": 3.0}
    floor = tight.report()
    ratios = floor_ratios(by_name, "human")
    assert ratios is not None and ratios["p50"] == round(1.0 / (0.25 + floor["p50_ms"]), 2)
    assert floor_ratios(by_name, "human", "commit floor paced") is not None


def test_the_floors_statement_and_table_are_the_servers() -> None:
    import asyncio

    import asyncpg  # type: ignore[import-untyped]

    from app.db.log_writer import POSTGRES_ONE
    from bench.load import FLOOR_DDL, FLOOR_INSERT, FLOOR_TABLE
    from tests.support.database import (
        create_pg_database,
        drop_pg_database,
        pg_url,
        upgrade,
    )

    assert POSTGRES_ONE.replace("game_actions", FLOOR_TABLE) == FLOOR_INSERT
    name = create_pg_database()
    columns = """SELECT column_name, data_type, is_nullable FROM information_schema.columns
                 WHERE table_name = $1 ORDER BY ordinal_position"""
    indexes = """SELECT count(*) FROM pg_indexes WHERE tablename = $1"""
    checks = """SELECT contype, count(*) FROM pg_constraint WHERE conrelid = $1::regclass
                GROUP BY contype ORDER BY contype"""

    async def shapes() -> list[list[tuple[object, ...]]]:
        connection = await asyncpg.connect(pg_url(name).replace("+asyncpg", ""))
        try:
            for ddl in FLOOR_DDL:
                await connection.execute(ddl)
            return [[tuple(r) for r in await connection.fetch(query, table)]
                    for table in ("game_actions", FLOOR_TABLE)
                    for query in (columns, indexes, checks)]
        finally:
            await connection.close()

    try:
        upgrade(pg_url(name))
        log, floor = (lambda found: (found[:3], found[3:]))(asyncio.run(shapes()))
    finally:
        drop_pg_database(name)
    assert floor == log  # columns and types, two indexes, check + foreign key + pk + unique


def test_slow_answers_are_counted_by_the_second_their_action_was_sent() -> None:
    phase = Phase("duels flat", started=100.0)
    phase.rtts, phase.sent = [0.01, 0.5, 0.4, 0.2, 1.2], [0.1, 0.2, 0.9, 3.5, 3.7]
    assert phase.slow_by_second() == {0: 2, 3: 1}
    assert phase.report()["slow_by_second"] == {0: 2, 3: 1}
    late = Phase("duels human", started=time.monotonic() - 5.0)
    late.answered(0.5)  # sent half a second ago, in the phase's fifth second
    assert late.rtts == [0.5] and late.slow_by_second() == {4: 1}
