"""How this server's Redis clients heal after Redis restarts.

A pooled connection to a Redis that restarted (or a balancer that dropped it) is a closed
socket: without a retry, the first command on it fails with ``Connection closed by
server`` and its work is lost (a stream entry, an ack echo), although the new Redis
answers. So every client retries a command that failed on a connection error, at once on
a fresh connection, then after a short backoff; and a connection idle for a while is
pinged before use. The retries stay short: a publish waits for them, and behind it the
game's next step (a real outage is announced by a gap marker instead:
app/messaging/redis_pubsub.py).
"""

from typing import Any

import redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.driver_info import DriverInfo
from redis.exceptions import ConnectionError, TimeoutError

from app.messaging.redis_packing import HiredisPackedConnection

RETRIES = 2
BACKOFF_BASE_SECONDS = 0.01
BACKOFF_CAP_SECONDS = 0.05
HEALTH_CHECK_SECONDS = 10
DRIVER_INFO = DriverInfo(lib_version=redis.__version__)
"""What each connection tells Redis of its library (``CLIENT SETINFO``), made once: redis-py
otherwise reads its own version from the installed package's metadata for every new
connection (about a millisecond of CPU), and the players of a killed worker reconnecting
to a survivor open tens of them at once."""


def healing_options(*, retry_timeouts: bool = True) -> dict[str, Any]:
    """Keyword arguments for a redis-py client or connection pool (its connections' commands
    packed by hiredis: app/messaging/redis_packing.py). ``retry_timeouts``
    False: a command that timed out is not sent again, for commands that must not run
    twice (a publish: a hung Redis may still run the first one once it wakes up)."""
    return {
        "retry": Retry(ExponentialBackoff(cap=BACKOFF_CAP_SECONDS, base=BACKOFF_BASE_SECONDS),
                       RETRIES),
        "retry_on_error": [ConnectionError, TimeoutError] if retry_timeouts else [ConnectionError],
        "health_check_interval": HEALTH_CHECK_SECONDS,
        "driver_info": DRIVER_INFO,
        "connection_class": HiredisPackedConnection,
    }
