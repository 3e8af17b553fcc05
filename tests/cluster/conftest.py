from tests.support.cluster import (  # noqa: F401 (fixtures)
    balanced_pg_cluster,
    pg_cluster,
    quick_pg_cluster,
    sqlite_server,
)
