"""Per-request log context: the request id and, where known, the game and player.

Context variables follow each asyncio task, so a WebSocket handler that binds its game id
gets it on every log line it writes without passing it around.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[str | None] = ContextVar("game_id", default=None)
player_id: ContextVar[str | None] = ContextVar("player_id", default=None)


@contextmanager
def bound(*, game: object = None, player: object = None) -> Iterator[None]:
    """Attach a game and/or player id to every log line written inside the block."""
    tokens = []
    if game is not None:
        tokens.append((game_id, game_id.set(str(game))))
    if player is not None:
        tokens.append((player_id, player_id.set(str(player))))
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


def bind_game(game: object) -> None:
    """Attach a game id for the rest of the current task (a WebSocket session)."""
    game_id.set(str(game))


def bind_player(player: object) -> None:
    """Attach a player id for the rest of the current task."""
    player_id.set(str(player))
