from tests.support.cluster import (  # noqa: F401 (fixtures)
    pg_cluster,
    quick_pg_cluster,
    sqlite_server,
)
