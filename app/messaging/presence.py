"""Who is online: a hook the live layer fills. Until then everyone is offline.

The REST friend list asks ``app.state.presence`` (any object with ``is_online``); the
WebSocket layer replaces it with its live presence tracker.
"""

from typing import Protocol


class PresenceRegistry(Protocol):
    def is_online(self, player_id: int) -> bool: ...


class NobodyOnline:
    def is_online(self, player_id: int) -> bool:
        return False
