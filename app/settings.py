"""One settings object for the whole server; no other module reads the environment."""

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SPIDER_", env_file=".env", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./data/spider.db"
    secret_key: str = "dev-only-change-me"
    pubsub_backend: str = "memory"
    redis_url: str = "redis://127.0.0.1:6379/0"
    host: str = "127.0.0.1"
    port: int = 8000
    web_dir: Path = Path(__file__).resolve().parent.parent / "web"
    allow_test_layouts: bool = False
    # REST (issue 4): rate limit on creating players, per client IP (token bucket).
    player_create_burst: int = 5
    player_create_per_minute: float = 10.0
    invite_ttl_seconds: int = 24 * 3600
    table_ttl_seconds: int = 24 * 3600


@lru_cache
def get_settings() -> Settings:
    return Settings()
