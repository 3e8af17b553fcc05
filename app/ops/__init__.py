"""The server shell: serving (uvicorn, ``spider cluster``), health and readiness probes,
the ``/metrics`` route, request-id middleware, structured logs and graceful shutdown.

Nothing here knows the rules of Spider, and nothing below the adapters imports it: the
live code reports into `app.runtime.metrics` with one line per event, and `app/main.py`
plugs the shell (middleware, probes, lifecycle) into the app.
"""
