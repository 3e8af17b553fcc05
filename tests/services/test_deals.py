"""choose_deal: solvable deals for 1 and 2 suits (with difficulty), random when opted out
(4-suit and rated deals: tests/services/test_rated_deals.py);
big generator numbers from the solvable mapping are stored and rebuilt."""

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.db.games import DealChoice
from app.db.models import DuelTable, Match, Player
from app.engine.deal import deal
from app.engine.deal_numbers import DUEL_NUMBER_MAX, DUEL_NUMBER_MIN
from app.engine.game import replay
from app.engine.rules import preset
from app.engine.solver.solvable import solvable_deal
from app.engine.state import RUNS_TO_WIN
from app.rewards.solo import SoloOptions, solo_start
from app.services import deals
from app.services.deal_pool import Bin, DealPool


@pytest.fixture
def fixed_number(monkeypatch: pytest.MonkeyPatch) -> int:
    number = 123_456_789_012  # a duel number (13 digits)
    monkeypatch.setattr(deals, "random_duel_number", lambda: number)
    return number


async def test_one_suit_deals_are_solvable_and_rated(fixed_number: int) -> None:
    choice = await deals.choose_deal(suits=1)
    mapped = solvable_deal(fixed_number, 1)
    assert choice.deal_number == mapped.source and choice.generator_version == 1
    assert choice.difficulty == mapped.difficulty in ("easy", "medium", "hard")
    won = replay(deal(mapped.source, preset("classic", 1)), mapped.solution)
    assert len(won.removed) == RUNS_TO_WIN


async def test_opted_out_deals_are_random(fixed_number: int) -> None:
    four = await deals.choose_deal(suits=4, solvable_only=False)
    assert (four.deal_number, four.difficulty) == (fixed_number, None)
    plain = await deals.choose_deal(suits=2, solvable_only=False)
    assert (plain.deal_number, plain.difficulty) == (fixed_number, None)


@pytest.mark.parametrize(("suits", "solvable_only", "difficulty"), [
    (1, None, "any"), (2, False, "any"), (4, None, "any"), (1, None, "easy")])
async def test_a_solo_game_on_the_play_number_deals_the_same_cards(
        suits: int, solvable_only: bool | None, difficulty: str) -> None:
    choice = await deals.choose_deal(suits=suits, solvable_only=solvable_only,
                                     difficulty=difficulty, pool=DealPool(sizes={}, make=_none))
    match = Match(suits=suits, preset="duel", deal_number=choice.deal_number,
                  generator_version=choice.generator_version, play_number=choice.play_number,
                  play_solvable_only=choice.play_solvable_only)
    play = deals.play_this_deal(match)
    # A duel number, never one a player picks (those can all be dealt ahead in minutes).
    assert play is not None and DUEL_NUMBER_MIN <= play["number"] <= DUEL_NUMBER_MAX
    assert play["suits"] == suits
    # "Solvable only" exactly when the match's deal came from the solvable mapping.
    assert play["solvable_only"] == (difficulty == "any" and solvable_only is None
                                     and suits < 4)
    solo = solo_start(play["number"], SoloOptions(suits, play["solvable_only"]))
    assert solo.state.columns == deals.start_state(match).columns
    assert solo.state.stock == deals.start_state(match).stock


def test_a_test_layout_has_no_play_number() -> None:
    match = Match(suits=1, preset="duel", deal_number=None, layout={"columns": []},
                  play_number=None)
    assert deals.play_this_deal(match) is None


def _none(bin_: Bin) -> DealChoice:
    raise AssertionError("an empty pool makes no deal")


async def test_generator_numbers_beyond_32_bits_are_stored(session: AsyncSession) -> None:
    ann, bob = Player(name="Ann", name_key="ann"), Player(name="Bob", name_key="bob")
    session.add_all([ann, bob])
    await session.flush()
    table = DuelTable(owner_id=ann.id, preset="duel", suits=2, time_limit_seconds=600,
                      level="any", is_public=True, rated=False, status="full")
    session.add(table)
    await session.flush()
    big = 2**47 + 12_345
    match = await repo.create_match(session, table=table, player_ids=[ann.id, bob.id],
                                    choice=repo.DealChoice(big, 1, None, "hard"))
    match_id, table_id = match.id, table.id
    await session.commit()
    session.expire_all()
    loaded = await repo.current_match(session, table_id=table_id)
    assert loaded is not None and loaded.id == match_id and loaded.deal_number == big
    assert deals.start_state(loaded) == deal(big, preset("duel", 2))
