"""Player tokens: long-lived, signed (itsdangerous), carried as ``Authorization: Bearer``.

The same token authenticates REST calls and the WebSocket. It holds only the player id;
the signature (with ``settings.secret_key``) is what makes it unforgeable.
"""

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.errors import NotAuthenticated

_SALT = "spider-duel/player-token/v1"


def _serializer(secret_key: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret_key, salt=_SALT)


def create_token(*, player_id: int, secret_key: str) -> str:
    return str(_serializer(secret_key).dumps({"player": player_id}))


def verify_token(*, token: str, secret_key: str) -> int:
    """The player id inside a valid token; :class:`NotAuthenticated` otherwise."""
    try:
        data = _serializer(secret_key).loads(token)
    except BadSignature:
        raise NotAuthenticated("the token is not valid", code="bad_token") from None
    player_id = data.get("player") if isinstance(data, dict) else None
    if type(player_id) is not int:
        raise NotAuthenticated("the token is not valid", code="bad_token")
    return player_id


async def player_from_token(*, session: AsyncSession, token: str, secret_key: str) -> Player:
    """The player a token names (REST dependency and WebSocket handshake share this)."""
    player = await session.get(Player, verify_token(token=token, secret_key=secret_key))
    if player is None:
        raise NotAuthenticated("the token's player no longer exists", code="unknown_player")
    return player
