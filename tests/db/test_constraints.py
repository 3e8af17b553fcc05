"""The schema refuses what the models say is impossible, on both backends."""

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Friendship, GameAction, Player, Rating


async def test_foreign_keys_are_enforced(session: AsyncSession) -> None:
    session.add(GameAction(game_id=12345, seq=1, action={"op": "deal"}))
    with pytest.raises(IntegrityError):
        await session.commit()


@pytest.mark.parametrize("row", [
    lambda p: Friendship(player_id=p, friend_id=p),
    lambda p: Rating(player_id=p, suits=3, rating=1500, rd=350, volatility=0.06),
    lambda p: Player(name="Ann2", name_key="ann"),
])
async def test_checks_and_uniques(session: AsyncSession, row) -> None:  # type: ignore[no-untyped-def]
    ann = Player(name="Ann", name_key="ann")
    session.add(ann)
    await session.commit()
    session.add(row(ann.id))
    with pytest.raises(IntegrityError):
        await session.commit()
