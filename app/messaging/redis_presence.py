"""Presence and the per-player connection cap shared by every process, in Redis.

With one process, presence is the process's own connection count (`StreamHub`). With
several, a player connected to process B must look online on process A, and the cap on
connections per player must hold across processes. Redis keeps, per process, its
heartbeat and its connections of each player, and a version counter
(app/messaging/presence_scripts.py has the keys and the scripts).

A process counts only while its heartbeat is younger than ``ttl``: a process that
crashed stops counting ``ttl`` seconds after its last heartbeat at most, so its players
turn offline and nobody stays locked out by the cap beyond that. The next heartbeat of
any surviving process (every ``heartbeat`` seconds) reaps it: deletes its numbers and
announces ``offline`` for the players it leaves with no connection. So a crashed
process's connections stop counting against the cap within ``ttl`` of the crash, and
its players are offline everywhere (``is_online``, ``presence`` events) within
``ttl + heartbeat`` — plus the scheduling delay of the survivors' event loops.

Every change runs as one Lua script, so a check and its write are atomic across
processes, and the script itself publishes the change of the *global* state (0 → ≥ 1
connections anywhere, or back) on ``presence:{id}`` (what watchers follow) and on
``presence-changes`` (what every process's local view follows). Redis runs scripts one
at a time, so these messages leave in the order of the changes; each carries the version
so a late message never overrides a newer snapshot.

``is_online`` never goes to Redis: it reads this process's own counts, then a local view
of who is online elsewhere, kept by those messages and refreshed from a snapshot at every
heartbeat (pub/sub delivery is at most once; the snapshot repairs anything lost).

If Redis cannot be reached, connections are admitted anyway (the per-process cap of
`app.runtime.connections` still holds) and the process rewrites its numbers at the next
heartbeat that works.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import redis.asyncio as redis
from redis.exceptions import RedisError

from app.messaging import presence_scripts as scripts
from app.messaging.player_streams import EventStream, Outbox
from app.messaging.pubsub import PubSub, Subscription
from app.messaging.redis_healing import healing_options
from app.messaging.redis_streams import RedisEventStreams
from app.messaging.stream_hub import StreamHub
from app.runtime import metrics
from app.runtime.clock import SYSTEM_CLOCK, Clock
from app.runtime.connections import TooManyConnections
from app.wire.base import Frame

log = logging.getLogger("spider.presence")

REDIS_TIMEOUT = 2.0  # a connect must not hang on an unreachable Redis
CLOSE_RETRY_SECONDS = 0.5
POOL_SIZE = 100  # connections to Redis per process, shared by every presence change

Listener = Callable[[int], Awaitable[None]]

class SharedPresence:
    """This process's side of the shared presence registry (see the module's doc)."""

    def __init__(
        self,
        url: str,
        *,
        pubsub: PubSub,
        prefix: str = "",
        ttl: float = 15.0,
        heartbeat: float = 3.0,
        max_per_player: int = 0,
        proc: str | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        if not 0 < heartbeat < ttl:
            raise ValueError("the presence heartbeat must be shorter than its ttl")
        self.proc = proc or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.prefix = prefix
        self.ttl = ttl
        self.heartbeat = heartbeat
        self._clock = clock
        self.max_per_player = max_per_player
        self._pubsub = pubsub
        # A pool that waits for a free connection (a moment, REDIS_TIMEOUT at most) rather
        # than failing: redis-py's default one raises MaxConnectionsError past 100 at once,
        # and 500 players leaving a worker together were counted "locally" as if Redis
        # were away (bench.load --cluster).
        pool = redis.BlockingConnectionPool.from_url(
            url, client_name=f"spider-presence-{self.proc}", max_connections=POOL_SIZE,
            timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT,
            socket_connect_timeout=REDIS_TIMEOUT, **healing_options())
        self._redis = redis.Redis(connection_pool=pool)
        self._change = self._redis.register_script(scripts.CHANGE)
        self._beat = self._redis.register_script(scripts.BEAT)
        self._sync_script = self._redis.register_script(scripts.SYNC)
        self._reap = self._redis.register_script(scripts.REAP)
        self._snapshot = self._redis.register_script(scripts.SNAPSHOT)
        self._local: dict[int, int] = {}  # this process's connections per player
        self._view: dict[int, tuple[bool, int]] = {}  # elsewhere: player → (online, version)
        self._view_version = 0  # the version of the last snapshot applied
        self._listeners: list[Listener] = []
        self._dirty = True  # our numbers in Redis may be wrong: rewrite at the next beat
        # A sync rewrites our numbers from `_local`: no change may be in flight meanwhile.
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._open = asyncio.Event()
        self._open.set()
        self._subscription: Subscription | None = None
        self._closed = False  # sockets closing after the rooms layer: nothing to tell
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ reading

    def is_online(self, player_id: int) -> bool:
        if self._local.get(player_id, 0) > 0:
            return True
        known = self._view.get(player_id)
        return known is not None and known[0]

    def connections_here(self, player_id: int) -> int:
        return self._local.get(player_id, 0)

    def on_change(self, listener: Listener) -> None:
        """Called with a player's id whenever this process learns their presence changed."""
        self._listeners.append(listener)

    # ------------------------------------------------------------------ changing

    async def admit(self, player_id: int) -> None:
        """Count one more connection of the player; TooManyConnections over the cap."""
        async with self._changing():
            try:
                after, version = await self._run_change(player_id, +1)
            except RedisError:
                self._unreachable("admit")
                after, version = 1, 0
            if after < 0:
                raise TooManyConnections(self.max_per_player)
            self._local[player_id] = self._local.get(player_id, 0) + 1
        if version:
            await self._learn(player_id, True, version)

    async def release(self, player_id: int) -> None:
        if self._closed:  # we left the registry already (close): our numbers are gone
            return
        async with self._changing():
            left = self._local.get(player_id, 0) - 1
            if left > 0:
                self._local[player_id] = left
            else:
                self._local.pop(player_id, None)
            try:
                _, version = await self._run_change(player_id, -1)
            except RedisError:
                self._unreachable("release")
                version = 0
        if version:
            await self._learn(player_id, False, version)

    async def _run_change(self, player_id: int, delta: int) -> tuple[int, int]:
        after, version = await self._change(args=[
            self.prefix, self.ttl, self.proc, player_id, delta, self.max_per_player,
        ])
        return int(after), int(version)

    @contextlib.asynccontextmanager
    async def _changing(self) -> AsyncIterator[None]:
        await self._open.wait()
        self._in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    def _unreachable(self, what: str) -> None:
        metrics.ERRORS.labels(where="presence").inc()
        log.warning("presence %s failed: Redis unreachable; counted locally", what,
                    exc_info=True)
        self._dirty = True

    # ------------------------------------------------------------------ heartbeat

    async def start(self) -> None:
        """Register this process (one try) and keep its heartbeat and view going."""
        with contextlib.suppress(Exception):
            await self._follow_changes()
        try:
            await self.beat()
        except Exception:
            self._failed("first heartbeat")
        self._tasks.append(asyncio.create_task(self._beat_forever(), name="presence-heartbeat"))

    async def beat(self) -> None:
        """One heartbeat: prove we live (or rewrite our numbers), reap the dead, refresh."""
        if self._subscription is None:
            await self._follow_changes()
        if self._dirty or not int(await self._beat(args=[self.prefix, self.ttl, self.proc])):
            await self._sync()
        await self._reap(args=[self.prefix, self.ttl])
        await self._refresh_view()

    async def _beat_forever(self) -> None:
        # Not `while True`: redis-py may swallow a cancellation that lands inside a call
        # (seen: a close waiting forever on a heartbeat that beat on), so `close` also
        # says stop.
        while not self._closed:
            await self._clock.sleep(self.heartbeat)
            try:
                await self.beat()
            except Exception:
                self._failed("heartbeat")

    def _failed(self, what: str) -> None:
        metrics.ERRORS.labels(where="presence").inc()
        log.warning("presence %s failed; retrying in %s s", what, self.heartbeat,
                    exc_info=True)

    async def _sync(self) -> None:
        self._open.clear()
        try:
            await self._idle.wait()
            counts = [str(x) for player_id, n in self._local.items() if n > 0
                      for x in (player_id, n)]
            await self._sync_script(args=[self.prefix, self.ttl, self.proc, *counts])
            self._dirty = False
        finally:
            self._open.set()

    # ------------------------------------------------------------------ local view

    async def _follow_changes(self) -> None:
        self._tasks = [task for task in self._tasks if not task.done()]
        subscription = await self._pubsub.subscribe(scripts.CHANGES)
        self._subscription = subscription
        self._tasks.append(asyncio.create_task(self._listen(subscription),
                                               name="presence-changes"))

    async def _listen(self, subscription: Subscription) -> None:
        async for message in subscription:
            try:
                await self._learn(int(message["player_id"]), bool(message["online"]),
                                  int(message["v"]))
            except Exception:
                log.exception("bad presence change %r", message)
        # Cut off (fell behind) or closed: the next heartbeat subscribes again.
        if self._subscription is subscription:
            self._subscription = None

    async def _learn(self, player_id: int, online: bool, version: int) -> None:
        known = self._view.get(player_id)
        if version <= self._view_version or (known is not None and known[1] >= version):
            return  # older than what we know
        was = self._online_elsewhere(player_id)
        self._view[player_id] = (online, version)
        if was != online:
            await self._tell(player_id)

    def _online_elsewhere(self, player_id: int) -> bool:
        known = self._view.get(player_id)
        return known is not None and known[0]

    async def _refresh_view(self) -> None:
        version, *online = await self._snapshot(args=[self.prefix, self.ttl])
        version = int(version)
        fresh: dict[int, tuple[bool, int]] = {int(p): (True, version) for p in online}
        if version >= self._view_version:
            for player_id, known in self._view.items():
                if known[1] > version:  # a change newer than the snapshot
                    fresh[player_id] = known
        # else Redis lost its data (restart, flush): versions start again, and so do we.
        changed = [p for p in set(fresh) | set(self._view)
                   if self._online_elsewhere(p) != (p in fresh and fresh[p][0])]
        self._view, self._view_version = fresh, version
        for player_id in changed:
            await self._tell(player_id)

    async def _tell(self, player_id: int) -> None:
        for listener in self._listeners:
            try:
                await listener(player_id)
            except Exception:
                log.exception("a presence listener failed for player %d", player_id)

    # ------------------------------------------------------------------ closing

    async def close(self) -> None:
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            while not task.done():  # cancelled again if a library swallowed it (above)
                await asyncio.wait([task], timeout=CLOSE_RETRY_SECONDS)
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                task.result()
        self._tasks.clear()
        if self._subscription is not None:
            await self._subscription.close()
            self._subscription = None
        try:
            await self._reap(args=[self.prefix, self.ttl, self.proc])  # leave at once
        except Exception:
            log.warning("could not leave the presence registry; others reap us after "
                        "%s s", self.ttl, exc_info=True)
        await self._redis.aclose(close_connection_pool=True)  # a pool given is not closed


class SharedStreamHub(StreamHub):
    """Sessions of this process, with presence and the connection cap shared in Redis.

    Who is online and how many connections a player holds are global; the event
    streams are written to Redis too when ``shared`` is given (app/messaging/redis_streams.py),
    so a client can resume its stream on any process.
    """

    def __init__(self, pubsub: PubSub, presence: SharedPresence,
                 shared: RedisEventStreams | None = None) -> None:
        super().__init__(pubsub, shared=shared)
        self.presence = presence
        presence.on_change(self._tell_listeners)

    def is_online(self, player_id: int) -> bool:
        return self.presence.is_online(player_id)

    async def connect(
        self, player_id: int, prelude: Callable[[EventStream], list[Frame]],
        resume: tuple[str | None, int | None] = (None, None),
    ) -> tuple[EventStream, Outbox]:
        await self.presence.admit(player_id)  # TooManyConnections over the global cap
        try:
            return await super().connect(player_id, prelude, resume)
        except BaseException:
            await self.presence.release(player_id)
            raise

    async def disconnect(self, session: EventStream, outbox: Outbox) -> None:
        await super().disconnect(session, outbox)
        await self.presence.release(session.player_id)

    async def _presence_changed(self, player_id: int, *, online: bool) -> None:
        # The registry's scripts announce changes of the global state; a change of this
        # process's own count says nothing by itself.
        return None

    async def _tell_listeners(self, player_id: int) -> None:
        for listener in self._presence_listeners:
            await listener(player_id)

    async def close(self) -> None:
        await super().close()
        await self.presence.close()

