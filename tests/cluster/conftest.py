from tests.support.cluster import pg_cluster, sqlite_server  # noqa: F401 (fixtures)
