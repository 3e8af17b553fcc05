"""Run one server process with the operational settings applied to uvicorn.

`spider serve` and `python -m app.ops.serve` both end here. Scaling out is running more
of these (different ports or hosts) against one PostgreSQL and one Redis, behind a load
balancer; see docs/operations.md.
"""

import asyncio
import gc
import importlib

import uvicorn

from app.ops.logging import configure_logging
from app.settings import Settings, get_settings


def uvicorn_config(settings: Settings, *, app: str = "app.main:app") -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        ws=ws_protocol(settings.ws_implementation),
        ws_max_size=settings.ws_protocol_max_bytes,
        ws_ping_interval=settings.ws_ping_interval,
        ws_ping_timeout=settings.ws_ping_timeout,
        ws_per_message_deflate=settings.ws_per_message_deflate,
        timeout_graceful_shutdown=max(1, int(settings.shutdown_drain_seconds)),
        log_config=None,  # the app installs its JSON logging (app/ops/logging.py)
        access_log=False,  # the request-id middleware writes the access log
        backlog=4096,
    )


def ws_protocol(name: str) -> str | type[asyncio.Protocol]:
    """"lean": uvicorn's sans-I/O protocol holding ~9 KB less per connection (lean_ws.py);
    any other name is uvicorn's own choice ("websockets-sansio", "websockets", "wsproto")."""
    if name == "lean":
        from app.ops.lean_ws import LeanWebSocketProtocol

        return LeanWebSocketProtocol
    return name


# Young-generation threshold (CPython's default is 700). Every action allocates a few
# dozen containers (positions, frames) that die within milliseconds; collecting less
# often lets them die by reference count first instead of being promoted, and a longer
# collection now and then costs less than many short ones (bench: 20 players flat on
# PostgreSQL, GC time ~1.3 s -> ~0.45 s per 20 s, longest pause ~210 -> ~65 ms).
GC_THRESHOLDS = (5000, 10, 10)


def settle_memory(app_module: str) -> None:
    """Import the app, then keep everything start-up built out of later collections.

    Modules, routes, models and schemas live as long as the process; frozen, a full
    collection no longer walks them again and again (gc.freeze).
    """
    importlib.import_module(app_module)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def main() -> None:
    settings = get_settings()
    # Before uvicorn starts, so its first lines are JSON too (the app does it again at
    # start, for servers started otherwise).
    configure_logging(level=settings.log_level, fmt=settings.log_format)
    config = uvicorn_config(settings)
    assert isinstance(config.app, str)
    settle_memory(config.app.partition(":")[0])
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
