"""``current_player``: the FastAPI dependency behind every authenticated route."""

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.database import Session
from app.db.models import Player
from app.rooms.auth import verify_token
from app.rooms.errors import NotAuthenticated

bearer = HTTPBearer(auto_error=False, description="the token from POST /api/players")


async def current_player(
    request: Request,
    session: Session,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Player:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise NotAuthenticated("send 'Authorization: Bearer <token>'", code="no_token")
    secret = request.app.state.settings.secret_key
    player_id = verify_token(token=credentials.credentials, secret_key=secret)
    player = await session.get(Player, player_id)
    if player is None:
        raise NotAuthenticated("the token's player no longer exists", code="unknown_player")
    return player


Me = Annotated[Player, Depends(current_player)]
