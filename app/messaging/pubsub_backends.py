"""Choose the pub/sub backend by name: the in-process one or Redis.

Apart from ``pubsub.py`` because the Redis backend builds on that module's queues: the
choice imports both, neither imports the choice (no import circle).
"""

from app.messaging.pubsub import MemoryPubSub, PubSub


def make_pubsub(backend: str, *, redis_url: str = "", channel_prefix: str = "",
                keep_seconds: float = 60.0) -> PubSub:
    """``keep_seconds``: how long the redis backend keeps each channel's messages."""
    if backend == "memory":
        return MemoryPubSub()
    if backend == "redis":
        from app.messaging.redis_pubsub import RedisPubSub  # redis is imported only when used

        return RedisPubSub(redis_url, prefix=channel_prefix, keep_seconds=keep_seconds)
    raise ValueError(f"unknown pubsub backend {backend!r}: 'memory' or 'redis'")
