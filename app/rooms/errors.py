"""The refusals of the live layer: requests about a match that the rooms refuse.

Each is in one category of the family in ``app/errors.py``; how it travels is the
adapters' business (app/api). ``code`` goes to the client with the message.
"""

from __future__ import annotations

from app.errors import Conflict, Forbidden, NotFound, RateLimited, SpiderError, Unavailable


class RoomError(SpiderError):
    """The live layer's base: ``except RoomError`` catches exactly its refusals."""

    code = "room_error"


class NoSuchMatch(RoomError, NotFound):
    code = "no_such_match"


class NotSeated(RoomError, Forbidden):
    code = "not_seated"


class SpectateRefused(RoomError, Forbidden):
    code = "spectate_refused"


class ReplayNotReady(RoomError, Conflict):
    code = "replay_not_ready"


class NotOpened(RoomError, Conflict):
    code = "not_opened"


class GameIsOver(RoomError, Conflict):
    code = "game_over"


class NotReadNow(RoomError, Unavailable):
    """A match could not be read from storage (``StoreError``): nothing was changed, no
    copy was kept, and the same frame may be sent again."""

    code = "unavailable"


class SayTooOften(RoomError, RateLimited):
    """A canned message too soon after the last ones (settings ``say_burst``,
    ``say_every_seconds``)."""

    code = "rate_limited"  # the words every client has for "slow down"
