"""Alembic environment: async engine, URL from app.settings (or config attribute in tests)."""

import asyncio
import contextlib
from collections.abc import Iterator
from logging.config import fileConfig

from sqlalchemy.engine import Connection

from alembic import context
from app.db import pool_models, solo_models  # noqa: F401  (their tables join Base.metadata)
from app.db.engine import make_engine
from app.db.models import Base, UTCDateTime
from app.settings import get_settings

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def database_url() -> str:
    # Tests hand a URL in through the config's attributes; everyone else uses settings.
    url = config.attributes.get("database_url")
    return str(url) if url else get_settings().database_url


def run_migrations_offline() -> None:
    context.configure(
        url=database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def render_item(type_: str, obj: object, autogen_context: object) -> str | bool:
    # Migrations must not import app code: render our UTC wrapper as the plain type.
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _run(connection: Connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things; batch mode copies the table.
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        render_item=render_item,
    )
    with _sqlite_foreign_keys_off(connection), context.begin_transaction():
        context.run_migrations()


@contextlib.contextmanager
def _sqlite_foreign_keys_off(connection: Connection) -> Iterator[None]:
    """SQLite: foreign keys off while migrating. A batch copy drops and renames the old
    table, and with foreign keys on that drop cascades: copying ``matches`` would delete
    every game. SQLite ignores the pragma inside a transaction, so it is set before one
    starts; a violation left by a migration is refused at the end."""
    if connection.dialect.name != "sqlite":
        yield
        return
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    try:
        yield
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"a migration broke foreign keys: {broken[:5]}")
    finally:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")


async def run_migrations_online() -> None:
    engine = make_engine(database_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
    finally:
        await engine.dispose()


def main() -> None:
    if context.is_offline_mode():
        run_migrations_offline()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    asyncio.run(run_migrations_online())


main()
