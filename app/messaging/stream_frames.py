"""The two frames a player's event stream makes itself: presence news and ``resync``.

Every other frame is built by the live layer (``app/rooms/frames.py``, which hands these
two on as well, so that callers and ``tests/rooms/test_frames.py`` find every builder there).
"""

from app.messaging.outbox import Payload


def presence(player_id: int, online: bool) -> Payload:
    return {"type": "presence", "player_id": player_id, "online": online}


def resync() -> Payload:
    """Told to a stream whose channel lost messages (its client asks for snapshots)."""
    return {"type": "resync", "reason": "events_lost"}
