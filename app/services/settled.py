"""Domain events: "this match is settled", with listeners that subscribe to it.

A settlement is recorded once (``results.finish_match`` claims the match); whatever
follows from it (ratings today, badges and the daily board later) listens here instead
of being called by the results service. An event is a frozen value. Listeners:

- ``subscribe(listener)``: ``await listener(event, session)`` inside the transaction that
  records the settlement, before it commits. Exactly once and atomically with the result:
  if a listener raises, nothing of the settlement is kept and the sweeper settles the
  match again later. For what lives in the database (ratings, badges).
- ``subscribe_after_commit(listener)``: ``await listener(event)`` once the settlement is
  committed. At most once (a crash in between loses it); a failure is logged and does not
  undo anything. For what lives outside the database (notifications, caches).

A listener module subscribes when it is imported; ``app/services/subscribers.py`` imports
every one of them, and the publisher imports that module, so no listener can be missed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from app.wire.news import BadgeEarned

log = logging.getLogger(__name__)

Event = TypeVar("Event")


class Topic(Generic[Event]):
    """One kind of domain event and its listeners, in subscription order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._within: list[Callable[[Event, AsyncSession], Awaitable[None]]] = []
        self._after: list[Callable[[Event], Awaitable[None]]] = []

    def subscribe(
        self, listener: Callable[[Event, AsyncSession], Awaitable[None]]
    ) -> Callable[[], None]:
        """Run ``listener`` in the settling transaction; returns the unsubscriber."""
        self._within.append(listener)
        return lambda: self._within.remove(listener)

    def subscribe_after_commit(
        self, listener: Callable[[Event], Awaitable[None]]
    ) -> Callable[[], None]:
        """Run ``listener`` after the commit; returns the unsubscriber."""
        self._after.append(listener)
        return lambda: self._after.remove(listener)

    async def publish(self, event: Event, *, session: AsyncSession) -> None:
        """Run the in-transaction listeners, commit, then the after-commit ones."""
        for within in list(self._within):
            await within(event, session)
        await session.commit()
        for after in list(self._after):
            try:
                await after(event)
            except Exception:  # committed: the result stands whatever a follower does
                log.exception("%s listener %r failed", self.name, after)


@dataclass(frozen=True)
class SeatResult:
    """One player's game as the settlement counted it."""

    player_id: int
    game_id: int
    seat: int
    status: str  # how the game ended: won, finished, timed_out
    duel_points: int  # recomputed from the action log
    time_used_ms: int


@dataclass(frozen=True)
class MatchSettled:
    match_id: int
    rated: bool
    suits: int
    winner_id: int | None  # None: a draw
    seats: tuple[SeatResult, ...]  # by seat
    ended_at: datetime


match_settled: Topic[MatchSettled] = Topic("match_settled")


@dataclass(frozen=True)
class SoloSettled:
    """A solo or daily game ended: won, abandoned or expired (docs/solo-and-daily.md §6)."""

    game_id: int
    kind: str  # solo / daily
    player_id: int
    status: str  # won / abandoned / expired
    ended_at: datetime


solo_settled: Topic[SoloSettled] = Topic("solo_settled")

_NOTIFY = "settled_notifications"


def notify(session: AsyncSession, player_id: int, frame: BadgeEarned) -> None:
    """From an in-transaction listener: a frame for ``player_id`` to send once the
    settlement is committed (a badge earned). The publisher sends them after its own."""
    session.info.setdefault(_NOTIFY, []).append((player_id, frame))


def take_notifications(session: AsyncSession) -> list[tuple[int, BadgeEarned]]:
    """The frames listeners left on ``session``, once (the publisher sends them)."""
    found: list[tuple[int, BadgeEarned]] = session.info.pop(_NOTIFY, [])
    return found
