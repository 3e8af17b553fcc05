"""``current_player``: the FastAPI dependency behind every authenticated route."""

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.database import Session
from app.db.models import Player
from app.errors import NotAuthenticated
from app.services.auth import player_from_token

bearer = HTTPBearer(auto_error=False, description="the token from POST /api/players")


async def current_player(
    request: Request,
    session: Session,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Player:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise NotAuthenticated("send 'Authorization: Bearer <token>'", code="no_token")
    return await player_from_token(session=session, token=credentials.credentials,
                                   secret_key=request.app.state.settings.secret_key)


Me = Annotated[Player, Depends(current_player)]


async def optional_player(
    request: Request,
    session: Session,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Player | None:
    """The caller when a token is sent (and valid), else None: for public reads that
    show a player more of their own things."""
    if credentials is None:
        return None
    return await current_player(request, session, credentials)


MaybeMe = Annotated[Player | None, Depends(optional_player)]
