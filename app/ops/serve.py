"""Run one server process with the operational settings applied to uvicorn.

`spider serve` and `python -m app.ops.serve` both end here. Scaling out is running more
of these (different ports or hosts) against one PostgreSQL and one Redis, behind a load
balancer; see docs/operations.md.
"""

import asyncio
import gc
import importlib
import logging

import uvicorn

from app.ops.logging import configure_logging
from app.settings import Settings, get_settings

log = logging.getLogger(__name__)


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
        # Behind the balancer (deploy/haproxy.cfg) the peer is the balancer: the client's
        # address comes from X-Forwarded-For, believed from these addresses only.
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )


def ws_protocol(name: str, *, fitting: bool | None = None) -> str | type[asyncio.Protocol]:
    """"lean": uvicorn's sans-I/O protocol holding ~9 KB less per connection (lean_ws.py),
    or uvicorn's stock one with framework releases lean_ws.py was not written for; any
    other name is uvicorn's own choice ("websockets-sansio", "websockets", "wsproto")."""
    if name == "lean":
        from app.runtime import lean_ws

        if lean_ws.FITS if fitting is None else fitting:
            return lean_ws.LeanWebSocketProtocol
        log.warning("lean WebSocket protocol off: written for %s, installed %s",
                    lean_ws.WRITTEN_FOR, lean_ws.installed_versions())
        return "websockets-sansio"
    return name


def settle_memory(app_module: str, thresholds: tuple[int, int, int]) -> None:
    """Import the app, then keep everything start-up built out of later collections.

    Modules, routes, models and schemas live as long as the process; frozen, a full
    collection no longer walks them again and again (gc.freeze).

    Then the collector's thresholds (``Settings.gc_thresholds``, default (100, 1, 20000)),
    chosen for the round-trip tail: a collection stops the event loop for as long as it
    walks its generations (~1 µs per object on the 2-core test machine), and every
    answer in flight waits that long.

    - Young, 100: CPython counts allocations *minus deallocations* against it. At human
      pace old objects die about as fast as new ones are made (each connection's wait
      for its next frame, a game's previous answer), so the young generation holds many
      times the threshold when it is collected: at 5,000 young pauses took 5-40 ms with
      1,000 players, at 700 3-6 ms; at 100 nearly all stay under 2 ms.
    - Middle, 1: collected every other young collection, so it stays small as well.
    - Full, 20000: a full collection walks every live object (60-900 ms in the load
      runs: the games' undo histories, sessions, connections), so it waits for 20,000
      middle collections instead of 10 (~75 s with 500 players flat out, ~8 minutes
      with 1,000 at human pace) and, as always in CPython, for the old generation to
      have grown by a quarter. Game state dies by
      reference counting (tests/rooms/test_duel.py checks a settled match); what waits
      for a full pass is the cyclic garbage of closed HTTP and WebSocket connections
      (uvicorn's protocol objects) and of SQLAlchemy statements built per request.
    """
    importlib.import_module(app_module)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def main(app: str = "app.main:app") -> None:
    """``app``: the module and attribute uvicorn serves (the tests serve their own)."""
    settings = get_settings()
    # Before uvicorn starts, so its first lines are JSON too (the app does it again at
    # start, for servers started otherwise).
    configure_logging(level=settings.log_level, fmt=settings.log_format)
    config = uvicorn_config(settings, app=app)
    assert isinstance(config.app, str)
    settle_memory(config.app.partition(":")[0], settings.gc_thresholds)
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
