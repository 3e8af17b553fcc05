"""The action log: append-only, sequence numbers unique per game, games rebuildable."""

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.db.models import DuelTable, Player
from app.rooms.store import Totals


async def _table_with_two_players(session: AsyncSession) -> tuple[DuelTable, Player, Player]:
    ann = Player(name="Ann", name_key="ann")
    bob = Player(name="Bob", name_key="bob")
    session.add_all([ann, bob])
    await session.flush()
    table = DuelTable(owner_id=ann.id, preset="duel", suits=1, time_limit_seconds=600,
                      level="any", is_public=True, rated=True, status="full")
    session.add(table)
    await session.flush()
    return table, ann, bob


async def test_create_match_makes_one_game_per_player(session: AsyncSession) -> None:
    table, ann, bob = await _table_with_two_players(session)
    choice = repo.DealChoice(deal_number=42, generator_version=1)
    first = await repo.create_match(session, table=table, player_ids=[ann.id, bob.id],
                                    choice=choice)
    second = await repo.create_match(session, table=table, player_ids=[bob.id, ann.id],
                                     choice=choice)
    await session.commit()
    assert (first.ordinal, second.ordinal) == (1, 2)
    games = await repo.games_of_match(session, match_id=second.id)
    assert [game.player_id for game in games] == [bob.id, ann.id]
    assert all(game.status == "playing" and game.started_at is None for game in games)
    latest = await repo.current_match(session, table_id=table.id)
    assert latest is not None and latest.id == second.id


async def test_append_action_refuses_a_duplicate_sequence_number(session: AsyncSession) -> None:
    table, ann, bob = await _table_with_two_players(session)
    match = await repo.create_match(session, table=table, player_ids=[ann.id, bob.id],
                                    choice=repo.DealChoice(7, 1))
    game = (await repo.games_of_match(session, match_id=match.id))[0]
    await repo.append_action(session, game_id=game.id, seq=1, action={"op": "deal"})
    await repo.append_action(session, game_id=game.id, seq=2, action={"op": "flip", "col": 3})
    with pytest.raises(repo.DuplicateActionError) as raised:
        await repo.append_action(session, game_id=game.id, seq=2, action={"op": "undo"})
    assert raised.value.seq == 2
    # The transaction is still usable after the refusal and nothing was overwritten.
    await repo.append_action(session, game_id=game.id, seq=3, action={"op": "undo"})
    await session.commit()
    loaded = await repo.load_game(session, game_id=game.id)
    assert loaded is not None
    assert [row.seq for row in loaded.actions] == [1, 2, 3]
    assert [row.action for row in loaded.actions] == [
        {"op": "deal"}, {"op": "flip", "col": 3}, {"op": "undo"}
    ]
    assert loaded.match.deal_number == 7


async def test_finish_game_records_how_it_ended_once(session: AsyncSession) -> None:
    table, ann, bob = await _table_with_two_players(session)
    match = await repo.create_match(session, table=table, player_ids=[ann.id, bob.id],
                                    choice=repo.DealChoice(7, 1))
    game = (await repo.games_of_match(session, match_id=match.id))[0]
    await repo.start_game(session, game=game)
    await repo.finish_game(session, game=game, status="finished",
                           progress=Totals(12, 30, 61_000))
    await session.commit()
    assert game.status == "finished" and game.ended_at is not None
    assert game.started_at is not None and game.ended_at >= game.started_at
    with pytest.raises(repo.GameStatusError):
        await repo.finish_game(session, game=game, status="won", progress=Totals(1, 1, 1))
    with pytest.raises(repo.GameStatusError):
        other = (await repo.games_of_match(session, match_id=match.id))[1]
        await repo.finish_game(session, game=other, status="exploded",
                               progress=Totals(1, 1, 1))
    with pytest.raises(repo.GameStatusError):  # a word nothing ever produced (migration 0006)
        await repo.finish_game(session, game=other, status="stuck", progress=Totals(1, 1, 1))
