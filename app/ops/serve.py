"""Run one server process with the operational settings applied to uvicorn.

`spider serve` and `python -m app.ops.serve` both end here. Scaling out is running more
of these (different ports or hosts) against one PostgreSQL and one Redis, behind a load
balancer; see docs/operations.md.
"""

import asyncio

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


def main() -> None:
    settings = get_settings()
    # Before uvicorn starts, so its first lines are JSON too (the app does it again at
    # start, for servers started otherwise).
    configure_logging(level=settings.log_level, fmt=settings.log_format)
    uvicorn.Server(uvicorn_config(settings)).run()


if __name__ == "__main__":
    main()
