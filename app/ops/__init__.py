"""Operations: metrics, health, structured logs and graceful shutdown.

Nothing here knows the rules of Spider; the live code reports into `app.ops.metrics`
with one line per event, and `app/main.py` plugs the rest (middleware, probes,
lifecycle) into the app.
"""
