"""Keep the match caches of several server processes honest with each other.

Each process keeps the matches it serves in memory (`DuelService`), rebuilt from the
action log. With several processes, a match may be cached by two of them: the one where
Ann plays and the one where Bob plays. After every durable change (an action logged, a
game started or ended) the changing process says so on the match's `sync:` channel.

The frequent news, an action logged, carries the action itself (seat, seq, action,
time): every other process holding the match applies it to its copy, as a rebuild from
the log would (``seat_log.follow_logged``), and keeps its copy and its subscription. So
does a game opened (its seat and when: ``seat_log.follow_opened``; once per game, but
each match's games open at about the same time, and a copy dropped for each made the
first action after them a read of the log). Any other news, or news that does not
follow on from the copy (a message missed: a gap in the seqs), drops the copy: it is
rebuilt from the log the next time it is needed, so no decision is taken on a stale
position. When the news is an end, the receiver rebuilds at once, which settles the
match if both games are over (the settling is idempotent in the database).

The action log still has the last word: two processes that race on one `seq` meet the
log's unique constraint, and the loser reloads (see `DuelService._apply_action`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.messaging.pubsub import PubSub, Subscription, poster
from app.rooms.store import StoredAction

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Change:
    """What another process changed: ``logged``, the action it logged for ``player_id``,
    or ``opened_at``, when it opened that player's game (neither: any other change, the
    copy must be rebuilt)."""

    ended: bool
    player_id: int | None = None
    logged: StoredAction | None = None
    opened_at: float | None = None


OnChange = Callable[[int, Change], Awaitable[None]]


def channel(match_id: int) -> str:
    return f"sync:{match_id}"


class PeerSync:
    def __init__(self, pubsub: PubSub, on_remote_change: OnChange) -> None:
        self.origin = secrets.token_hex(8)
        self._pubsub = pubsub
        self._post = poster(pubsub)
        self._on_remote_change = on_remote_change
        self._watching: dict[int, tuple[Subscription, asyncio.Task[None]]] = {}

    async def watch(self, match_id: int) -> None:
        """Listen for other processes' changes to a match this process has cached."""
        if match_id in self._watching:
            return
        subscription = await self._pubsub.subscribe(channel(match_id))
        task = asyncio.create_task(self._listen(match_id, subscription))
        self._watching[match_id] = (subscription, task)

    async def unwatch(self, match_id: int) -> None:
        entry = self._watching.pop(match_id, None)
        if entry is None:
            return
        subscription, task = entry
        await subscription.close()
        if task is not asyncio.current_task():
            task.cancel()

    async def tell(self, match_id: int, *, ended: bool, player_id: int | None = None,
                   logged: StoredAction | None = None, opened_at: float | None = None
                   ) -> None:
        """This process changed the match durably: ``logged``, the action it logged for
        ``player_id``, or ``opened_at``, when it opened that player's game (the others
        apply either), or anything else (they rebuild)."""
        await self.told(match_id, ended=ended, player_id=player_id, logged=logged,
                        opened_at=opened_at)

    def told(self, match_id: int, *, ended: bool, player_id: int | None = None,
             logged: StoredAction | None = None, opened_at: float | None = None
             ) -> Awaitable[None]:
        """``tell``, posted now (``app.messaging.pubsub.poster``): it goes out with the
        step's other messages. Await the result."""
        message: dict[str, Any] = {"origin": self.origin, "ended": ended}
        if logged is not None and player_id is not None:
            message.update(player=player_id, seq=logged.seq, action=logged.action,
                           at=logged.at)
        elif opened_at is not None and player_id is not None:
            message.update(player=player_id, opened_at=opened_at)
        return self._post(channel(match_id), message)

    async def close(self) -> None:
        for match_id in list(self._watching):
            await self.unwatch(match_id)

    async def _listen(self, match_id: int, subscription: Subscription) -> None:
        async for message in subscription:
            if message.get("origin") == self.origin:
                continue
            try:
                await self._on_remote_change(match_id, _change(message))
            except Exception:  # a failed rebuild is retried on the next use of the match
                log.exception("could not follow a change of match %d", match_id)
        # The stream ended (closed, or cut for falling behind): forget it so the next
        # load subscribes again.
        with contextlib.suppress(KeyError):
            if self._watching[match_id][0] is subscription:
                del self._watching[match_id]


def _change(message: dict[str, Any]) -> Change:
    ended = bool(message.get("ended"))
    player_id, seq, action, at, opened_at = (message.get(key) for key in (
        "player", "seq", "action", "at", "opened_at"))
    if (isinstance(player_id, int) and isinstance(seq, int) and isinstance(action, dict)
            and isinstance(at, int | float)):
        return Change(ended, player_id, StoredAction(seq, action, float(at)))
    if (isinstance(player_id, int) and isinstance(opened_at, int | float)
            and not isinstance(opened_at, bool)):
        return Change(ended, player_id, opened_at=float(opened_at))
    return Change(ended)
