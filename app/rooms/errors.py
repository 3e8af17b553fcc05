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
    """No match has this id (never made, or not in this deployment's database)."""

    code = "no_such_match"


class NotSeated(RoomError, Forbidden):
    """The player has no seat in the match (or the match has no opponent for them):
    only the two players open, play or talk at a duel's table."""

    code = "not_seated"


class SpectateRefused(RoomError, Forbidden):
    """A game the asker may not watch now: their own, or the opponent's before the
    asker's own game is over (nobody else watches a match in progress)."""

    code = "spectate_refused"


class ReplayNotReady(RoomError, Conflict):
    """A replay asked for before both games of the match are over: a replay shows
    every card, so it waits for the last game to end."""

    code = "replay_not_ready"


class NotOpened(RoomError, Conflict):
    """A hint asked for in a game that is not opened yet (its clock has not started)."""

    code = "not_opened"


class GameIsOver(RoomError, Conflict):
    """A hint asked for in a game that is over (won, finished, timed out, not started)."""

    code = "game_over"


class NotReadNow(RoomError, Unavailable):
    """A match could not be read from storage (``StoreError``): nothing was changed, no
    copy was kept, and the same frame may be sent again."""

    code = "unavailable"


class SayTooOften(RoomError, RateLimited):
    """A canned message too soon after the last ones (settings ``say_burst``,
    ``say_every_seconds``)."""

    code = "rate_limited"  # the words every client has for "slow down"
