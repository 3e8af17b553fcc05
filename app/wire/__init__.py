"""The wire format: one typed struct per frame the server sends, and nothing else.

Every server → client frame of the WebSocket protocol is one ``msgspec`` struct here,
tagged by its ``type`` (the events of a step, in ``events.py``, by their ``kind``), and
so is every part of one (a view, rules, an action, a record in ``game.py``): built
by the live layer's builders (``app/rooms/frames.py``, ``app/services/solo_frames.py``,
``app/messaging/stream_frames.py``), encoded as it is (``frames.encode``), read back typed
where it crossed a process (``frames.read_channel``, ``frames.decode``), documented from
the same types (``python -m app.api.protocol_docs``) and imported by the tests' stand-in
servers. Client → server messages are parsed, strictly, by ``app/api/protocol.py``.

The package imports nothing of app/: the messaging layer, the rooms, the services and
the adapters all speak it (``tests/test_layout.py``).
"""
