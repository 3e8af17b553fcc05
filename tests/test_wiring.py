"""The live layer's composition root (app/wiring.py): the WebSocket's token check."""

from typing import Any

import pytest
from sqlalchemy import event

from app.db.engine import make_engine, make_session_factory
from app.errors import NotAuthenticated
from app.services.auth import create_token
from app.services.players import create_player
from app.wiring import build_live_rooms
from tests.support.api import SECRET, make_settings
from tests.support.database import (  # noqa: F401 (fixtures)
    backend,
    database_url,
    migrated_databases,
)


async def test_a_player_found_once_is_not_looked_up_again(database_url: str) -> None:  # noqa: F811
    """A burst of reconnections (a worker gone, its players all resuming on this one)
    cost a database round trip each for the token's player: found once, known after."""
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)
    statements: list[str] = []

    def counted(*args: Any) -> None:
        statements.append(str(args[2]))

    rooms = await build_live_rooms(settings=make_settings(database_url), engine=engine,
                                   sessions=sessions)
    try:
        async with sessions() as session:
            ann = await create_player(session=session, name="ann", secret_key=SECRET)
            ann_id, token = ann.player.id, ann.token
        event.listen(engine.sync_engine, "before_cursor_execute", counted)
        assert await rooms.authenticate(token) == ann_id
        looked_up = [s for s in statements if "players" in s]
        assert len(looked_up) == 1, statements
        assert await rooms.authenticate(token) == ann_id
        assert await rooms.authenticate(token) == ann_id
        assert [s for s in statements if "players" in s] == looked_up  # no more look-ups

        # A token signed for an id nobody has is refused, and every time.
        stranger = create_token(player_id=ann_id + 1000, secret_key=SECRET)
        for _ in range(2):
            with pytest.raises(NotAuthenticated):
                await rooms.authenticate(stranger)
        with pytest.raises(NotAuthenticated):
            await rooms.authenticate(token + "x")  # a bad signature: no look-up at all
    finally:
        if event.contains(engine.sync_engine, "before_cursor_execute", counted):
            event.remove(engine.sync_engine, "before_cursor_execute", counted)
        await rooms.close()
        await engine.dispose()
