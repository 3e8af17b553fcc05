"""Quick duels' matcher (app/services/quick_duel.py) past the happy path: a waiting
player I ignore, a quick duel played out whose second player left."""

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, Match, Player
from app.services import quick_duel, tables
from app.services.friends import IGNORES, add_contact
from app.services.players import create_player

DEADLINE = 600


async def players(session: AsyncSession, *names: str) -> list[Player]:
    made = [await create_player(session=session, name=name, secret_key="k") for name in names]
    return [made_one.player for made_one in made]


async def test_the_only_waiting_player_is_one_i_ignore_so_i_get_my_own(
        session: AsyncSession) -> None:
    """Bug: Carol waited, Alice (who ignores her) asked: 500 (the refusal's rollback
    expired Alice's row, and opening her own table then read it outside the loop)."""
    alice, carol = await players(session, "alice", "carol")
    waiting = await quick_duel.take_quick_duel(session=session, player=carol, suits=1,
                                               deadline_seconds=DEADLINE)
    waiting_id = waiting.view.table.id
    await add_contact(session=session, player=alice, name="carol", contacts=IGNORES)
    mine = await quick_duel.take_quick_duel(session=session, player=alice, suits=1,
                                            deadline_seconds=DEADLINE)
    assert mine.created and not mine.paired
    assert mine.view.table.id != waiting_id
    assert await quick_duel.looking(session=session) == 2


async def test_a_quick_duel_played_out_whose_opponent_left_is_nobody_waiting(
        session: AsyncSession) -> None:
    """Bug: Bob and Carol finished a quick duel, Carol declined a new one and left: Bob's
    table was open again with him seated, counted as "1 player looking", and Alice's
    quick duel tried it, was refused, and failed with a 500."""
    alice, bob, carol = await players(session, "alice", "bob", "carol")
    first = await quick_duel.take_quick_duel(session=session, player=bob, suits=1,
                                             deadline_seconds=DEADLINE)
    paired = await quick_duel.take_quick_duel(session=session, player=carol, suits=1,
                                              deadline_seconds=DEADLINE)
    table_id = paired.view.table.id
    assert paired.paired and table_id == first.view.table.id
    match_id = await session.scalar(select(Match.id).where(Match.table_id == table_id))
    await session.execute(update(Game).where(Game.match_id == match_id).values(status="won"))
    await session.execute(update(Match).where(Match.id == match_id).values(status="finished"))
    await session.commit()
    await tables.leave_table(session=session, table_id=table_id, player=carol)
    assert (await tables.get_table(session=session, table_id=table_id, viewer=bob)
            ).status == "open"  # Bob still seated: open, but no request of his

    assert await quick_duel.looking(session=session) == 0
    assert await quick_duel.my_waiting_table(session=session, player=bob) is None
    mine = await quick_duel.take_quick_duel(session=session, player=alice, suits=1,
                                            deadline_seconds=DEADLINE)
    assert mine.created and mine.view.table.id != table_id
    assert await quick_duel.looking(session=session) == 1
