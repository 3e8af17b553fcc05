"""The two frames a player's event stream makes itself: presence news and ``resync``.

Every other frame is built by the live layer (``app/rooms/frames.py``, which hands these
two on as well, so that callers and ``tests/rooms/test_frames.py`` find every builder there).
"""

from app.wire.news import Presence, Resync


def presence(player_id: int, online: bool) -> Presence:
    return Presence(player_id, online)


def resync() -> Resync:
    """Told to a stream whose channel lost messages (its client asks for snapshots)."""
    return Resync("events_lost")
