"""A solvable deal's own verified win as help: a rescue along it needs no search."""

from app.engine.game import legal_moves, push, replay
from app.engine.solver.solvable import solvable_deal
from app.rewards.assist import RESCUE_ACTIONS, rescue_actions
from app.rewards.guide import deal_line, rescue_on_line
from app.rewards.solo import SoloOptions, solo_start

NUMBER, SUITS = 5, 1


def test_the_rest_of_the_deals_win_from_its_start_or_any_position_on_it() -> None:
    start = solo_start(NUMBER, SoloOptions(SUITS)).state
    line = solvable_deal(NUMBER, SUITS).solution
    assert deal_line(start, (NUMBER, SUITS)) == line
    for played in (1, 10, len(line) - 1):
        assert deal_line(replay(start, line[:played]), (NUMBER, SUITS)) == line[played:]
    assert deal_line(start, None) is None  # not a solvable deal: nothing known
    off = next(move for move in legal_moves(start) if move != line[0])
    assert deal_line(push(start, off), (NUMBER, SUITS)) is None
    # Another deal's line is not this game's.
    assert deal_line(start, (NUMBER + 1, SUITS)) is None


def test_a_rescue_on_the_line_plays_it_where_a_search_finds_nothing() -> None:
    """A budget too small for any search (one node): the search says "unknown", the
    rescue along the deal's win plays its next actions all the same."""
    start = solo_start(NUMBER, SoloOptions(SUITS)).state
    line = solvable_deal(NUMBER, SUITS).solution
    assert rescue_actions(start, nodes=1).status == "unknown"
    here = replay(start, line[:7])
    found = rescue_on_line(here, (NUMBER, SUITS), nodes=1)
    assert found.status == "way_out" and found.nodes == 0
    assert found.actions == line[7:7 + RESCUE_ACTIONS] and found.line == line[7:]
    assert found.remaining == len(line) - 7
    # Off the line it searches, as a rescue always did.
    off = next(move for move in legal_moves(start) if move != line[0])
    assert rescue_on_line(push(start, off), (NUMBER, SUITS), nodes=1).status == "unknown"
