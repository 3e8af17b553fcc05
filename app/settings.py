"""One settings object for the whole server; no other module reads the environment."""

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SPIDER_", env_file=".env", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./data/spider.db"
    secret_key: str = "dev-only-change-me"
    pubsub_backend: str = "memory"
    redis_url: str = "redis://127.0.0.1:6379/0"
    host: str = "127.0.0.1"
    port: int = 8000
    # Addresses whose X-Forwarded-For / X-Forwarded-Proto are believed (the balancer's;
    # comma-separated, "*" for any): the client's address then is the forwarded one.
    forwarded_allow_ips: str = "127.0.0.1"
    web_dir: Path = Path(__file__).resolve().parent.parent / "web"
    # REST (issue 4): rate limit on creating players, per client IP (token bucket).
    player_create_burst: int = 5
    player_create_per_minute: float = 10.0
    invite_ttl_seconds: int = 24 * 3600
    table_ttl_seconds: int = 24 * 3600
    # The no-show rule (issue 12): a player who has not opened their game this long after
    # the match was made loses it as "did not start" (docs/api.md); 0 turns it off.
    start_window_seconds: int = Field(15 * 60, ge=0)
    # Quick duel (issue 25): how long a quick-duel request waits for the next player of
    # the same band and suit count, and, once paired, how long a player has to open their
    # game (then "did not start"); it replaces the start window for quick duels.
    quick_duel_deadline_seconds: int = Field(3600, ge=60)

    # Operations (app/ops): log format "json" or "text"; seconds to wait for open
    # WebSocket sessions to end at shutdown.
    log_level: str = "INFO"
    log_format: str = "json"
    shutdown_drain_seconds: float = 5.0

    # Hostile-input limits of the WebSocket (app/api/limits.py).
    ws_max_frame_bytes: int = 16_384
    ws_max_json_depth: int = 8
    ws_actions_per_second: float = 20.0
    ws_action_burst: int = 40
    ws_max_connections_per_player: int = 4
    # Canned messages at a duel table (`say`, app/api/table_talk.py): per player, this many
    # at once, then one per this many seconds.
    say_burst: int = Field(3, ge=1)
    say_every_seconds: float = Field(10.0, gt=0)
    # Browser origins allowed to open a WebSocket ("*" allows any); requests without an
    # Origin header (non-browser clients) are always allowed.
    ws_allowed_origins: list[str] = ["*"]
    # Passed to uvicorn by `spider serve` (app/ops/serve.py): ping/pong sheds dead clients;
    # the protocol-level frame cap backs up ws_max_frame_bytes; per-message compression
    # costs ~64 KB of zlib state per idle connection, so it is off.
    ws_ping_interval: float = 20.0
    ws_ping_timeout: float = 20.0
    ws_protocol_max_bytes: int = 65_536
    ws_per_message_deflate: bool = False
    # "lean": uvicorn's websockets-sansio with lighter per-connection state
    # (app/runtime/lean_ws.py).
    ws_implementation: str = "lean"
    # Check every server frame against the protocol models before sending it (and that
    # the fast serializer says the same). Costs CPU on every frame: on in the test suite,
    # off in production.
    ws_validate_frames: bool = False
    # Many games' action-log appends share one transaction under load
    # (app/services/group_commit.py).
    db_group_commit: bool = True
    # PostgreSQL: action-log batches in flight at once, each on a connection of its own
    # (app/services/group_commit.py): an action need not wait for the batch being committed.
    db_log_writers: int = 2
    # PostgreSQL: an action is acknowledged once the server has its commit. False: once
    # the commit is in the server's memory, before its WAL reaches disk (synchronous_commit
    # off, on the action-log writer's connection only). Still nothing lost when the game
    # server crashes; a crash of PostgreSQL or of the machine loses the last ~0.6 s of
    # acknowledged actions (3 x wal_writer_delay). Measured: ~0.3 ms at p50
    # (docs/bench/load-rounds.md, "Durability of an acknowledgement").
    action_log_synchronous_commit: bool = True
    # The database connection pool of one process (the action-log writer keeps one of
    # them for itself; count pool_size + max_overflow per process against the server's
    # max_connections).
    db_pool_size: int = 10
    db_max_overflow: int = 20
    db_pool_timeout_seconds: float = 30.0
    # Prefix of every Redis pub/sub channel (and presence key): deployments sharing one
    # Redis stay apart.
    redis_channel_prefix: str = "spider:"
    # Shared presence with the redis backend (app/messaging/redis_presence.py): a process
    # counts while its heartbeat is younger than the ttl, so a crashed process's
    # connections vanish within presence_ttl_seconds (events: + one heartbeat).
    # Players' event streams in Redis (app/messaging/redis_streams.py): a client resumes on
    # any process within the last `event_stream_retention` events of its stream, while
    # the stream was written within `event_stream_ttl_seconds`; channel messages are kept
    # `channel_stream_retention_seconds` (the longest gap a stream can catch up on after
    # its process died, or a process's pub/sub connection was down).
    event_stream_retention: int = 100
    event_stream_ttl_seconds: float = 900.0
    channel_stream_retention_seconds: float = 60.0
    presence_ttl_seconds: float = 15.0
    presence_heartbeat_seconds: float = 3.0
    # Seconds between two sweeps for overdue games (app/rooms/sweeper.py); None: every
    # 5 s with several processes (pubsub_backend redis), off with one; 0: off.
    overdue_sweep_seconds: float | None = None
    # A bare WebSocket echo at /bench/echo, the load harness's baseline; off in production.
    bench_echo: bool = False
    # Deals solved ahead of need (app/services/deal_pool.py, docs/operations.md): solvable
    # 1- and 2-suit deals per suit count, and rated deals per (suits, difficulty) bin for
    # tables with a difficulty and 4-suit tables; 0 turns that part off (a new match then
    # waits for the solver). A match start whose bin is empty searches a deal of its
    # difficulty for at most deal_pool_wait_seconds, then takes any solved deal.
    deal_pool_size: int = Field(4, ge=0)
    deal_pool_rated_size: int = Field(2, ge=0)
    deal_pool_wait_seconds: float = Field(10.0, ge=0)
    # Where the pool solves: one child process (the solver holds the interpreter's lock,
    # which a solving thread would take from the event loop), or a thread.
    deal_pool_worker: Literal["process", "thread"] = "process"
    # Random solvable solo deals solved ahead of need, kept in the database's solo_pool
    # table (app/services/solo_pool.py): ready deals per suit count for 1 and 2 suits, and
    # for 4 suits (whose solve takes seconds); 0 turns that suit count's part off. Solved
    # on the worker deal_pool_worker names.
    solo_pool_size: int = Field(4, ge=0)
    solo_pool_four_suits_size: int = Field(16, ge=0)
    # Child processes for the solver calls of requests (hints, rescues, auto-complete,
    # solo and daily starts, a match's deal when the pool has none): spawned on first use,
    # each ~one Python interpreter's memory; 0: threads of the server process, which take
    # the interpreter's lock from the event loop while they solve (app/runtime/solver_worker.py).
    solver_processes: int = Field(2, ge=0)
    # The collector's thresholds in `spider serve` (young, middle, full; why these:
    # app/ops/serve.py settle_memory). In the environment as JSON: '[100,1,20000]'.
    gc_thresholds: tuple[int, int, int] = (100, 1, 20000)
    # Solo play (docs/solo-and-daily.md section 11): wall-clock caps of a rescue search
    # and of the auto-complete check, beside their node budgets.
    solo_rescue_seconds: float = 2.5
    solo_auto_complete_seconds: float = 2.0
    # POST /api/records/verify: body and move limits, per-address token bucket.
    records_verify_max_bytes: int = 262_144
    records_verify_max_moves: int = 20_000
    records_verify_burst: int = 10
    records_verify_per_minute: float = 30.0


@lru_cache
def get_settings() -> Settings:
    return Settings()
