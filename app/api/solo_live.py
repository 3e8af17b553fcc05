"""Solo play as a route dependency: the app's one ``SoloPlay`` (``app/main.py`` builds it),
reached by REST routes and the WebSocket alike."""

from __future__ import annotations

from fastapi import Request

from app.services.solo_play import SoloPlay


def solo_play(request: Request) -> SoloPlay:
    play: SoloPlay = request.app.state.solo
    return play
