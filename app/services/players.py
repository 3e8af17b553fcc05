"""Players: pick a unique display name, get a token; public info and statistics."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, Match, Player
from app.errors import Conflict, InvalidInput, NotFound
from app.services.auth import create_token
from app.services.bands import band_of
from app.services.paging import Page, check_paging
from app.services.ratings import SUIT_COUNTS, ratings_of

NAME_MIN = 3
NAME_MAX = 20
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_NAME_PREFIX = re.compile(r"[A-Za-z0-9_-]{1,20}")


class PlayerNameError(InvalidInput):
    code = "bad_name"


def check_name(name: str) -> str:
    """A display name: 3–20 characters, letters, digits, '_' or '-', starting with a letter."""
    if not isinstance(name, str):
        raise PlayerNameError("the name must be a string")
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise PlayerNameError(
            f"the name must be {NAME_MIN} to {NAME_MAX} characters long, not {len(name)}"
        )
    if not _NAME.fullmatch(name):
        raise PlayerNameError(
            "the name may hold only letters A-Z, digits, '_' and '-', and starts with a letter"
        )
    return name


def name_key(name: str) -> str:
    return name.casefold()


@dataclass(frozen=True)
class NewPlayer:
    player: Player
    token: str


async def create_player(*, session: AsyncSession, name: str, secret_key: str) -> NewPlayer:
    check_name(name)
    key = name_key(name)
    if await session.scalar(select(Player.id).where(Player.name_key == key)) is not None:
        raise Conflict(f"the name {name!r} is taken", code="name_taken")
    player = Player(name=name, name_key=key)
    session.add(player)
    try:
        await session.commit()
    except IntegrityError:  # a concurrent request took the name between check and insert
        await session.rollback()
        raise Conflict(f"the name {name!r} is taken", code="name_taken") from None
    return NewPlayer(player, create_token(player_id=player.id, secret_key=secret_key))


def _found(player: Player | None, detail: str) -> Player:
    if player is None:
        raise NotFound(detail, code="player_not_found")
    return player


async def get_player(*, session: AsyncSession, player_id: int) -> Player:
    return _found(await session.get(Player, player_id), f"no player {player_id}")


async def find_by_name(*, session: AsyncSession, name: str) -> Player:
    found = await session.scalar(select(Player).where(Player.name_key == name_key(name)))
    return _found(found, f"no player named {name!r}")


@dataclass(frozen=True)
class PlayerName:
    id: int
    name: str


async def search_players(*, session: AsyncSession, prefix: str, page: int, page_size: int
                         ) -> Page[PlayerName]:
    """Players whose name starts with ``prefix`` (any case), shortest names first."""
    offset, limit = check_paging(page, page_size)
    if not prefix or not _NAME_PREFIX.fullmatch(prefix):
        raise PlayerNameError("search by the start of a name: letters, digits, '_' or '-'")
    # '_' is a LIKE wildcard: escaped, so "a_" finds "a_b" and not "ab".
    pattern = name_key(prefix).replace("_", "\\_") + "%"
    query = select(Player).where(Player.name_key.like(pattern, escape="\\"))
    total = await session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = await session.scalars(
        query.order_by(func.length(Player.name_key), Player.name_key).offset(offset).limit(limit))
    return Page([PlayerName(row.id, row.name) for row in rows], total, page, page_size)


class RatingInfo(BaseModel):
    """A player's rating at one suit count; the API answers it as it is (RatingOut)."""

    model_config = ConfigDict(frozen=True)

    suits: int
    rating: float
    rd: float
    band: str
    games: int


class PlayerInfo(BaseModel):
    """A player's profile and record; the API's PlayerOut adds solo, daily and badges."""

    model_config = ConfigDict(frozen=True)

    id: int
    name: str
    since: datetime
    games_played: int
    won: int
    lost: int
    drawn: int
    # 0 also after a draw
    streak: int = Field(description="> 0 wins in a row, < 0 losses in a row, 0 otherwise")
    ratings: Sequence[RatingInfo]


async def _outcomes(session: AsyncSession, player_id: int) -> list[int]:
    """+1 win, -1 loss, 0 draw for each finished match, newest first."""
    rows = await session.execute(
        select(Match.winner_id)
        .join(Game, Game.match_id == Match.id)
        .where(Game.player_id == player_id, Match.status == "finished")
        .order_by(Match.ended_at.desc(), Match.id.desc())
    )
    return [0 if winner is None else (1 if winner == player_id else -1) for (winner,) in rows]


def _streak(outcomes: list[int]) -> int:
    if not outcomes or outcomes[0] == 0:
        return 0
    first = outcomes[0]
    length = 0
    for outcome in outcomes:
        if outcome != first:
            break
        length += 1
    return first * length


async def player_info(*, session: AsyncSession, player_id: int) -> PlayerInfo:
    player = await get_player(session=session, player_id=player_id)
    outcomes = await _outcomes(session, player_id)
    ratings = await ratings_of(session=session, player_id=player_id)
    return PlayerInfo(
        id=player.id,
        name=player.name,
        since=player.created_at,
        games_played=len(outcomes),
        won=outcomes.count(1),
        lost=outcomes.count(-1),
        drawn=outcomes.count(0),
        streak=_streak(outcomes),
        ratings=[
            RatingInfo(suits=suits, rating=r.rating, rd=r.rd, band=band_of(r.rating),
                       games=r.games)
            for suits, r in ((s, ratings[s]) for s in SUIT_COUNTS)
        ],
    )
