"""Run-time primitives the live layer is built from: the clock, Prometheus metrics, a light
queue, eager tasks, the solver's worker process, the connection registry and the lean
WebSocket protocol.

They know nothing of Spider and import nothing of app/ but `app.errors` and each other;
every layer above (messaging, rooms, services, the adapters, the server shell) may use them.
"""
