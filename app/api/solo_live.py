"""Install solo play on the app: one ``SoloPlay`` and the settled event, reached by REST
routes and the WebSocket alike (``app.state.solo``, ``app.state.settled``)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from app.rooms import channels
from app.services.solo_play import SoloPlay
from app.settings import Settings


def install_solo(app: FastAPI, settings: Settings) -> None:
    async def publish(player_id: int, frame: dict[str, Any]) -> None:
        rooms = getattr(app.state, "rooms", None)  # none in a REST-only app (tests)
        if rooms is not None:
            await rooms.pubsub.publish(channels.player(player_id), frame)

    app.state.solo = SoloPlay(
        sessions=app.state.sessions, publish=publish,
        rescue_seconds=settings.solo_rescue_seconds,
        auto_complete_seconds=settings.solo_auto_complete_seconds,
    )


def solo_play(request: Request) -> SoloPlay:
    play: SoloPlay = request.app.state.solo
    return play
