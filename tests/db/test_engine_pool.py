"""The connection pool's size comes from the settings; in-memory SQLite keeps its one connection."""

from pathlib import Path

from sqlalchemy.pool import StaticPool

from app.db.engine import make_engine
from app.main import create_app
from app.settings import Settings


def test_pool_sizing_from_the_settings(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'pool.db'}"
    app = create_app(Settings(database_url=url, db_pool_size=7, db_max_overflow=3,
                              db_pool_timeout_seconds=2.5))
    pool = app.state.db_engine.pool
    assert pool.size() == 7
    assert pool._max_overflow == 3
    assert pool._timeout == 2.5


def test_in_memory_sqlite_ignores_pool_sizing() -> None:
    engine = make_engine("sqlite+aiosqlite:///:memory:", pool_size=7)
    assert isinstance(engine.pool, StaticPool)

