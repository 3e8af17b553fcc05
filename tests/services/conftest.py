from tests.support.api import app, client  # noqa: F401 (fixtures)
from tests.support.database import (  # noqa: F401 (fixtures)
    backend,
    database_url,
    migrated_databases,
    session,
    session_factory,
)
