"""Tables: the deal of a match that starts is chosen before the request writes anything.

The solver may run for seconds on a busy machine. Run inside the join's write transaction
it held SQLite's single write lock all that time (every other writer, the action log
included, waited, and past the 5 s busy timeout failed: "database is locked"), and on
PostgreSQL the table's row lock.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import games as repo
from app.db.games import DealChoice
from app.db.models import DuelTable, Player
from app.errors import Conflict
from app.services import invites, players, results, tables
from app.services.tables import TableSettings, TableView
from tests.support.play import play

# Long enough for a free database, far below SQLite's 5 s busy timeout.
OTHER_WRITER_WITHIN_S = 2.0


async def player(session: AsyncSession, name: str) -> Player:
    return (await players.create_player(session=session, name=name, secret_key="k")).player


async def ann_bob_and_a_table(session: AsyncSession, settings: TableSettings | None = None
                              ) -> tuple[Player, Player, TableView]:
    """Two players and a table of Ann's, Bob not seated."""
    ann, bob = await player(session, "Ann"), await player(session, "Bob")
    view = await tables.create_table(session=session, owner=ann,
                                     settings=settings or TableSettings(), ttl_seconds=3600)
    return ann, bob, view


def write_while_the_deal_is_chosen(
    monkeypatch: pytest.MonkeyPatch, sessions: async_sessionmaker[AsyncSession],
) -> list[DealChoice]:
    """Make choosing a deal also lock the table and write from another session (another
    connection): it succeeds only if the request holds no lock or write transaction."""
    chosen: list[DealChoice] = []
    choose = tables.deal_for

    async def while_choosing(table: DuelTable) -> DealChoice:
        async def other_writer() -> None:
            async with sessions() as other:
                await tables.lock_table(other, table.id)
                other.add(Player(name=f"Writer{len(chosen)}", name_key=f"writer{len(chosen)}"))
                await other.commit()

        await asyncio.wait_for(other_writer(), OTHER_WRITER_WITHIN_S)
        chosen.append(await choose(table))
        return chosen[-1]

    monkeypatch.setattr(tables, "deal_for", while_choosing)
    return chosen


async def test_joining_chooses_the_deal_before_writing(
    session: AsyncSession, session_factory: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, bob, view = await ann_bob_and_a_table(session)
    chosen = write_while_the_deal_is_chosen(monkeypatch, session_factory)

    joined = await tables.join_table(session=session, table_id=view.table.id, player=bob)

    assert joined.match is not None and joined.table.status == "full"
    assert [c.deal_number for c in chosen] == [joined.match.deal_number]


async def test_accepting_an_invitation_chooses_the_deal_before_writing(
    session: AsyncSession, session_factory: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, bob, view = await ann_bob_and_a_table(session, TableSettings(public=False))
    invite = (await invites.create_invite(session=session, table_id=view.table.id, inviter=ann,
                                          to=None, ttl_seconds=3600)).invite
    chosen = write_while_the_deal_is_chosen(monkeypatch, session_factory)

    joined = await invites.accept_invite(session=session, code=invite.code, player=bob)

    assert joined.match is not None and len(chosen) == 1


async def test_a_new_game_chooses_the_deal_before_writing(
    session: AsyncSession, session_factory: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, bob, view = await ann_bob_and_a_table(session)
    first = (await tables.join_table(session=session, table_id=view.table.id, player=bob)).match
    assert first is not None
    first.status = "finished"  # both games over, as a settled match leaves it
    await session.commit()
    asked = await tables.agree_new_game(session=session, table_id=view.table.id, player=ann)
    assert asked.match is not None and asked.match.id == first.id  # one wish starts nothing
    chosen = write_while_the_deal_is_chosen(monkeypatch, session_factory)

    agreed = await tables.agree_new_game(session=session, table_id=view.table.id, player=bob)

    assert agreed.match is not None and agreed.match.id != first.id
    assert [c.deal_number for c in chosen] == [agreed.match.deal_number]


async def test_a_player_whose_game_is_over_may_leave_while_the_other_still_plays(
    session: AsyncSession,
) -> None:
    """The brief: a player who has finished may watch, leave, or start a new game. The
    table then stays out of the lobby until its match is settled, and nobody sits down
    at it in between (a second match would start beside the first)."""
    ann, bob, created = await ann_bob_and_a_table(session)
    view = await tables.seat_player(session=session, table=created.table, player=bob)
    assert view.match is not None
    first, second = await repo.games_of_match(session, match_id=view.match.id)
    table_id = view.table.id
    with pytest.raises(Conflict) as refused:  # Bob's game is still to be played
        await tables.leave_table(session=session, table_id=table_id, player=bob)
    assert refused.value.code == "match_in_progress"
    await play(session, game_id=second.id, steps=2, end="finished", time_used_ms=30_000)
    left = await tables.leave_table(session=session, table_id=table_id, player=bob)
    assert [seat.player_id for seat in left.seats] == [ann.id]
    assert left.table.status == "full"  # not in the lobby while Ann plays
    cid = await player(session, "Cid")
    with pytest.raises(Conflict) as wait:  # not even by an invitation
        await tables.seat_player(session=session, table=left.table, player=cid, invited=True)
    assert wait.value.code == "match_in_progress"
    with pytest.raises(Conflict):  # Ann is playing: she cannot leave yet
        await tables.leave_table(session=session, table_id=table_id, player=ann)

    await play(session, game_id=first.id, steps=3, end="finished", time_used_ms=60_000)
    await results.finish_match(session=session, match_id=view.match.id)
    reopened = await session.get(DuelTable, table_id, populate_existing=True)
    assert reopened is not None and reopened.status == "open"  # in the lobby again
    joined = await tables.seat_player(session=session, table=reopened, player=cid)
    assert joined.match is not None and joined.match.id != view.match.id
