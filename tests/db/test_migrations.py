"""Migrations go up to head and back down to base, on SQLite and PostgreSQL."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import pool_models, solo_models  # noqa: F401  (their tables join Base.metadata)
from app.db.models import Base
from tests.support.database import (
    BACKENDS,
    create_pg_database,
    downgrade,
    drop_pg_database,
    pg_url,
    sqlite_url,
    upgrade,
)

EXPECTED_TABLES = {
    "players", "friendships", "ignores", "duel_tables", "seats", "invites",
    "matches", "games", "game_actions", "ratings", "pooled_deals", "solo_pool",
}


def _inspect(url: str) -> tuple[set[str], list[object]]:
    """Table names and the differences between the models and the migrated schema."""
    async def run() -> tuple[set[str], list[object]]:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as connection:
                def look(sync: Connection) -> tuple[set[str], list[object]]:
                    names = set(inspect(sync).get_table_names())
                    context = MigrationContext.configure(sync)
                    return names, list(compare_metadata(context, Base.metadata))
                return await connection.run_sync(look)
        finally:
            await engine.dispose()

    return asyncio.run(run())


@pytest.fixture(params=BACKENDS)
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "fresh.db")
        return
    name = create_pg_database()
    try:
        yield pg_url(name)
    finally:
        drop_pg_database(name)


def test_upgrade_to_head_creates_the_models_schema(empty_url: str) -> None:
    upgrade(empty_url)
    names, differences = _inspect(empty_url)
    assert names >= EXPECTED_TABLES
    assert differences == [], f"models and migrations disagree: {differences}"


def test_downgrade_to_base_removes_everything_and_upgrade_again_works(empty_url: str) -> None:
    upgrade(empty_url)
    downgrade(empty_url)
    names, _ = _inspect(empty_url)
    assert names & EXPECTED_TABLES == set()
    upgrade(empty_url)
    names, _ = _inspect(empty_url)
    assert names >= EXPECTED_TABLES


def test_sqlite_directory_is_created(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "deeper" / "data" / "spider.db")
    upgrade(url)
    assert (tmp_path / "deeper" / "data" / "spider.db").exists()


def _sql(url: str, *statements: str) -> list[object]:
    """Run ``statements`` in one transaction; the first column of the last one's rows."""
    async def run() -> list[object]:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as connection:
                for statement in statements:
                    result = await connection.execute(text(statement))
                return list(result.scalars()) if result.returns_rows else []
        finally:
            await engine.dispose()

    return asyncio.run(run())


A_GAME = (
    "INSERT INTO players (id, name, name_key, created_at) VALUES (1, 'Ann', 'ann', "
    "CURRENT_TIMESTAMP), (2, 'Bob', 'bob', CURRENT_TIMESTAMP)",
    "INSERT INTO duel_tables (id, owner_id, preset, suits, time_limit_seconds, level, "
    "is_public, rated, status, created_at) VALUES (1, 1, 'duel', 1, 600, 'any', true, true, "
    "'full', CURRENT_TIMESTAMP)",
    "INSERT INTO matches (id, table_id, ordinal, preset, suits, time_limit_seconds, rated, "
    "status, deal_number, generator_version, created_at) VALUES (1, 1, 1, 'duel', 1, 600, "
    "true, 'playing', 7, 1, CURRENT_TIMESTAMP)",
)


def test_0006_turns_stuck_games_into_finished_ones_and_refuses_stuck(empty_url: str) -> None:
    upgrade(empty_url, "0005")
    _sql(empty_url, *A_GAME, "INSERT INTO games (match_id, player_id, seat, status, score, "
         "actions_count, time_used_ms) VALUES (1, 1, 0, 'stuck', 3, 4, 5000)")
    upgrade(empty_url)
    assert _sql(empty_url, "SELECT status FROM games") == ["finished"]
    with pytest.raises(IntegrityError):
        _sql(empty_url, "INSERT INTO games (match_id, player_id, seat, status, score, "
             "actions_count, time_used_ms) VALUES (1, 2, 1, 'stuck', 0, 0, 0)")
    downgrade(empty_url, "0005")
    _sql(empty_url, "INSERT INTO games (match_id, player_id, seat, status, score, "
         "actions_count, time_used_ms) VALUES (1, 2, 1, 'stuck', 0, 0, 0)")


DUEL_NUMBER = 2**48 - 1
A_SOLO_GAME = ("INSERT INTO solo_games (player_id, kind, number, suits, solvable_only, relaxed, "
               "source_deal, generator_version, status, created_at, actions_count, undos, "
               "hints, rescues, auto_completed, score) VALUES ({player}, 'solo', {number}, 1, "
               "false, false, {number}, 1, 'playing', CURRENT_TIMESTAMP, 0, 0, 0, 0, false, 0)")


def test_0008_keeps_duel_numbers_up_to_2_48_and_refuses_beyond(empty_url: str) -> None:
    upgrade(empty_url, "0007")
    _sql(empty_url, *A_GAME, A_SOLO_GAME.format(player=1, number=999_999))
    with pytest.raises(DBAPIError):  # the check on SQLite, INTEGER's range on PostgreSQL
        _sql(empty_url, f"UPDATE matches SET play_number = {DUEL_NUMBER}")
    upgrade(empty_url)
    _sql(empty_url, f"UPDATE matches SET play_number = {DUEL_NUMBER}",
         A_SOLO_GAME.format(player=2, number=DUEL_NUMBER))
    assert _sql(empty_url, "SELECT play_number FROM matches") == [DUEL_NUMBER]
    assert sorted(_sql(empty_url, "SELECT number FROM solo_games")) == [999_999, DUEL_NUMBER]
    for wider in ("UPDATE matches SET play_number = 281474976710656",
                  "UPDATE solo_games SET number = 281474976710656",
                  "UPDATE solo_games SET number = 0"):
        with pytest.raises(IntegrityError):
            _sql(empty_url, wider)
    _sql(empty_url, "UPDATE matches SET play_number = 7",
         f"DELETE FROM solo_games WHERE number = {DUEL_NUMBER}")
    downgrade(empty_url, "0007")
    assert _sql(empty_url, "SELECT play_number FROM matches") == [7]
    with pytest.raises(IntegrityError):
        _sql(empty_url, "UPDATE solo_games SET number = 1000000")


def test_0009_logs_totals_and_downgrading_puts_them_back_on_playing_games(
    empty_url: str,
) -> None:
    upgrade(empty_url, "0008")
    _sql(empty_url, *A_GAME,
         "INSERT INTO games (id, match_id, player_id, seat, status, score, actions_count, "
         "time_used_ms) VALUES (1, 1, 1, 0, 'playing', -1, 1, 100), "
         "(2, 1, 2, 1, 'finished', 9, 9, 9000)",
         "INSERT INTO game_actions (game_id, seq, action, at) VALUES "
         "(1, 1, '{\"op\": \"deal\"}', CURRENT_TIMESTAMP)")
    upgrade(empty_url)
    assert _sql(empty_url, "SELECT score FROM game_actions") == [None]  # logged before
    _sql(empty_url,
         "INSERT INTO game_actions (game_id, seq, action, at, score, actions_count, "
         "time_used_ms) VALUES (1, 2, '{\"op\": \"undo\"}', CURRENT_TIMESTAMP, -3, 2, 250), "
         "(2, 1, '{\"op\": \"deal\"}', CURRENT_TIMESTAMP, -1, 1, 50)")
    downgrade(empty_url, "0008")
    # The game being played gets its last logged totals; the ended one keeps its own.
    assert _sql(empty_url, "SELECT score || ',' || actions_count || ',' || time_used_ms "
                "FROM games ORDER BY id") == ["-3,2,250", "9,9,9000"]


def test_social_0002_turns_one_way_friends_into_requests(empty_url: str) -> None:
    """Ann kept Bob one way (→ Ann's request to Bob), Bob and Cid were friends both ways
    (kept), Dee kept Ann whom Ann ignores (dropped: an ignore ends requests)."""
    upgrade(empty_url, "social_0001")
    _sql(empty_url,
         "INSERT INTO players (id, name, name_key, created_at) VALUES "
         "(1, 'Ann', 'ann', CURRENT_TIMESTAMP), (2, 'Bob', 'bob', CURRENT_TIMESTAMP), "
         "(3, 'Cid', 'cid', CURRENT_TIMESTAMP), (4, 'Dee', 'dee', CURRENT_TIMESTAMP)",
         "INSERT INTO friendships (player_id, friend_id, created_at) VALUES "
         "(1, 2, CURRENT_TIMESTAMP), (2, 3, CURRENT_TIMESTAMP), (3, 2, CURRENT_TIMESTAMP), "
         "(4, 1, CURRENT_TIMESTAMP)",
         "INSERT INTO ignores (player_id, ignored_id, created_at) VALUES "
         "(1, 4, CURRENT_TIMESTAMP)")
    upgrade(empty_url)
    pairs = "SELECT {a} * 10 + {b} FROM {table} ORDER BY 1"
    assert _sql(empty_url, pairs.format(a="player_id", b="friend_id", table="friendships")) \
        == [23, 32]
    assert _sql(empty_url, pairs.format(a="player_id", b="invitee_id",
                                        table="friend_requests")) == [12]
    downgrade(empty_url, "social_0001")
    assert _sql(empty_url, pairs.format(a="player_id", b="friend_id", table="friendships")) \
        == [12, 23, 32]
