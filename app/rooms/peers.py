"""Keep the match caches of several server processes honest with each other.

Each process keeps the matches it serves in memory (`DuelService`), rebuilt from the
action log. With several processes, a match may be cached by two of them: the one where
Ann plays and the one where Bob plays. After every durable change (an action logged, a
game started or ended) the changing process says so on the match's `sync:` channel;
every other process holding that match drops its copy and rebuilds it from the log the
next time it needs it, so no decision is taken on a stale position. When the news is an
end, the receiver rebuilds at once, which settles the match if both games are over (the
settling is idempotent in the database).

The action log still has the last word: two processes that race on one `seq` meet the
log's unique constraint, and the loser reloads (see `DuelService._apply_action`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable

from app.rooms.pubsub import PubSub, Subscription

log = logging.getLogger(__name__)

OnChange = Callable[[int, bool], Awaitable[None]]


def channel(match_id: int) -> str:
    return f"sync:{match_id}"


class PeerSync:
    def __init__(self, pubsub: PubSub, on_remote_change: OnChange) -> None:
        self.origin = secrets.token_hex(8)
        self._pubsub = pubsub
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

    async def tell(self, match_id: int, *, ended: bool) -> None:
        """This process changed the match durably; the others must rebuild their copy."""
        await self._pubsub.publish(channel(match_id), {"origin": self.origin, "ended": ended})

    async def close(self) -> None:
        for match_id in list(self._watching):
            await self.unwatch(match_id)

    async def _listen(self, match_id: int, subscription: Subscription) -> None:
        async for message in subscription:
            if message.get("origin") == self.origin:
                continue
            try:
                await self._on_remote_change(match_id, bool(message.get("ended")))
            except Exception:  # a failed rebuild is retried on the next use of the match
                log.exception("could not follow a change of match %d", match_id)
        # The stream ended (closed, or cut for falling behind): forget it so the next
        # load subscribes again.
        with contextlib.suppress(KeyError):
            if self._watching[match_id][0] is subscription:
                del self._watching[match_id]
