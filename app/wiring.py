"""The composition root of the live layer: the rooms on the SQL database, with the store
(group commit or plain), token check, friends, the pub/sub backend, event streams and
presence (in-process, or shared through Redis), the overdue sweeper and the deal pool.

The one module that knows every concrete piece; ``app/main.py`` (the app's own
composition root) builds it in the app's lifespan. Nothing else imports it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Awaitable, Callable
from functools import partial

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db.models import Friendship, Player
from app.db.sqlite_wal import use_wal
from app.errors import NotAuthenticated
from app.messaging.pubsub import PubSub
from app.messaging.pubsub_backends import make_pubsub
from app.messaging.stream_hub import StreamHub
from app.rooms.layer import Rooms, build_rooms
from app.runtime import solver_worker
from app.services import deal_pool, deal_pool_store, solo_pool
from app.services.auth import verify_token
from app.services.deals import pooled_deal
from app.services.group_commit import GroupCommitSqlStore
from app.services.sql_store import SqlStore
from app.settings import Settings

DEFAULT_SWEEP_SECONDS = 5.0
KNOWN_PLAYERS_KEPT = 100_000  # ids found in the database (~6 MB at most)
log = logging.getLogger(__name__)


async def build_live_rooms(*, settings: Settings, engine: AsyncEngine,
                           sessions: async_sessionmaker[AsyncSession]) -> Rooms:
    """The rooms layer on this database: SQL store, token check, friends, pubsub, presence."""
    use_wal(engine)  # one commit per action: make it cheap (app/db/sqlite_wal.py)

    known: set[int] = set()

    async def authenticate(token: str) -> int:
        """The token's player: signed by us, and found in the database once. Players are
        never deleted, so one found stays found: a burst of reconnections (a worker gone,
        its players all resuming here) costs no database round trip for players seen."""
        player_id = verify_token(token=token, secret_key=settings.secret_key)
        if player_id in known:
            return player_id
        async with sessions() as session:
            if await session.get(Player, player_id) is None:
                raise NotAuthenticated("the token's player no longer exists")
        if len(known) >= KNOWN_PLAYERS_KEPT:
            known.clear()  # a plain bound: the next ones are looked up again
        known.add(player_id)
        return player_id

    async def friends_of(player_id: int) -> list[int]:
        async with sessions() as session:
            found = await session.scalars(
                select(Friendship.friend_id).where(Friendship.player_id == player_id)
            )
            return list(found)

    pubsub = make_pubsub(settings.pubsub_backend, redis_url=settings.redis_url,
                         channel_prefix=settings.redis_channel_prefix,
                         keep_seconds=settings.channel_stream_retention_seconds)
    several = settings.pubsub_backend != "memory"  # other processes share our players
    # The app's session factory (app/api/database.py); group commit under load, on a
    # connection of its own that goes back to the pool when the rooms close.
    window = float(settings.start_window_seconds) or None  # 0: no start window
    store = (GroupCommitSqlStore(sessions, engine,
                                 synchronous_commit=settings.action_log_synchronous_commit,
                                 writers=settings.db_log_writers, start_window_s=window)
             if settings.db_group_commit else SqlStore(sessions, start_window_s=window))
    rooms = build_rooms(
        pubsub=pubsub,
        store=store,
        authenticate=authenticate,
        friends_of=friends_of,
        peers=several,  # other processes may cache our matches
        streams=await shared_streams(settings, pubsub) if several else None,
        sweep_every=sweep_period(settings),
    )
    rooms.on_close.append(await start_deal_pool(settings, sessions))
    rooms.on_close.append(start_solo_pool(settings, sessions))
    rooms.on_close.append(use_solver_processes(settings))
    if isinstance(store, GroupCommitSqlStore):
        rooms.on_close.append(store.close)
    return rooms


async def start_deal_pool(settings: Settings, sessions: async_sessionmaker[AsyncSession]
                          ) -> Callable[[], Awaitable[None]]:
    """Start this process's deal pool (app/services/deal_pool.py) with the deals an
    earlier process kept (app/services/deal_pool_store.py); returns its closer, which
    keeps what the pool still holds."""
    sizes = deal_pool.bin_sizes(solvable=settings.deal_pool_size,
                                rated=settings.deal_pool_rated_size)
    if settings.deal_pool_worker == "process":  # killed at stop: no cancel event needed
        pool = deal_pool.DealPool(sizes=sizes, make=pooled_deal, processes=True,
                                  wait_seconds=settings.deal_pool_wait_seconds)
    else:
        cancel = threading.Event()  # set at stop: a 4-suit solve in progress gives up
        pool = deal_pool.DealPool(sizes=sizes, make=partial(pooled_deal, cancelled=cancel),
                                  wait_seconds=settings.deal_pool_wait_seconds, cancel=cancel)
    if pool.enabled:
        try:
            async with sessions() as session:
                kept = await deal_pool_store.claim_saved(session=session, sizes=pool.sizes)
        except Exception:  # the pool refills anyway: never keep the server from starting
            log.exception("the deal pool could not claim the deals kept at the last stop")
            kept = []
        for bin_, choice in kept:
            pool.offer(bin_, choice)
    pool.start()
    deal_pool.install(pool)

    async def stop() -> None:
        if deal_pool.installed() is pool:
            deal_pool.install(None)
        await pool.stop()
        if not pool.enabled:
            return
        try:
            async with sessions() as session:
                await deal_pool_store.save_ready(session=session, ready=pool.holding())
        except Exception:  # lost, not harmful: the next start refills
            log.exception("the deal pool could not keep its deals for the next start")

    return stop


def start_solo_pool(settings: Settings, sessions: async_sessionmaker[AsyncSession]
                    ) -> Callable[[], Awaitable[None]]:
    """Start refilling the solo deal pool (app/services/solo_pool.py: the deals are rows,
    kept across restarts); returns its closer."""
    sizes = {1: settings.solo_pool_size, 2: settings.solo_pool_size,
             4: settings.solo_pool_four_suits_size}
    pool = solo_pool.SoloPool(sessions=sessions, sizes=sizes,
                              processes=settings.deal_pool_worker == "process")
    pool.start()
    solo_pool.install(pool)

    async def stop() -> None:
        if solo_pool.installed() is pool:
            solo_pool.install(None)
        await pool.stop()

    return stop


def use_solver_processes(settings: Settings) -> Callable[[], Awaitable[None]]:
    """Send the requests' solver calls to child processes (app/runtime/solver_worker.py), if
    ``solver_processes`` is not 0; returns the closer, which sends them to threads again
    (the children are kept for the process's next app: stopped at exit)."""
    size = settings.solver_processes
    solver_worker.install(size)

    async def stop() -> None:
        if size:
            solver_worker.uninstall()

    return stop


async def shared_streams(settings: Settings, pubsub: PubSub) -> StreamHub:
    """Event streams whose presence, connection cap and events hold across processes
    (Redis)."""
    from app.messaging.redis_presence import SharedPresence, SharedStreamHub
    from app.messaging.redis_pubsub import RedisPubSub
    from app.messaging.redis_streams import RedisEventStreams  # redis only here

    assert isinstance(pubsub, RedisPubSub)
    streams = RedisEventStreams(
        pubsub.client, prefix=settings.redis_channel_prefix, owner=pubsub.client_name,
        retention=settings.event_stream_retention,
        ttl_seconds=settings.event_stream_ttl_seconds, channel_key=pubsub.stream_key,
        pipeline=pubsub.pipeline,
    )
    presence = SharedPresence(
        settings.redis_url, pubsub=pubsub, prefix=settings.redis_channel_prefix,
        ttl=settings.presence_ttl_seconds, heartbeat=settings.presence_heartbeat_seconds,
        max_per_player=settings.ws_max_connections_per_player,
    )
    hub = SharedStreamHub(pubsub, presence, streams)
    await presence.start()
    return hub


def sweep_period(settings: Settings) -> float:
    """Seconds between sweeps for overdue games; by default only with several processes."""
    if settings.overdue_sweep_seconds is not None:
        return max(0.0, settings.overdue_sweep_seconds)
    return DEFAULT_SWEEP_SECONDS if settings.pubsub_backend != "memory" else 0.0
