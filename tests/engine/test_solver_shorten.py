"""Shortened lines are legal, still win, and are never longer than the line they came from."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.deal import deal
from app.engine.game import replay
from app.engine.rules import preset
from app.engine.solver import solve
from app.engine.solver.board import DEAL, Board, Step, board_from_state
from app.engine.solver.moves import play
from app.engine.solver.polish import polish
from app.engine.solver.replay import verified_actions
from app.engine.solver.schedule import portfolio
from app.engine.solver.search import Limits
from app.engine.solver.shorten import shorten


def _raw_win(number: int, suits: int) -> tuple[Board, tuple[Step, ...]]:
    board = board_from_state(deal(number, preset("classic", suits)))
    found = portfolio(board, Limits(nodes=50_000), over_empty=False)
    assert found.steps is not None
    return board, found.steps


def _with_detour(board: Board, steps: tuple[Step, ...], at: int) -> tuple[Step, ...]:
    """``steps`` with a pointless back-and-forth inserted after ``at`` actions, if one fits:
    a one-card move onto another column and straight back."""
    columns, dealt = board.columns, board.dealt
    for step in steps[:at]:
        if step == DEAL:
            columns = tuple(c + bytes((card,)) for c, card in zip(columns, board.rows[dealt],
                                                                  strict=True))
            return steps  # keep it simple: only before the first deal
        columns = play(columns, step)[0]
    for src, column in enumerate(columns):
        for dst, target in enumerate(columns):
            if src == dst or not column or not target or column[-1] >= 64 or target[-1] >= 64:
                continue
            below = column[-2] if len(column) > 1 else 0
            if target[-1] & 15 == (column[-1] & 15) + 1 and below < 64 and \
                    below & 15 == (column[-1] & 15) + 1:
                return (*steps[:at], (src, dst, 1), (dst, src, 1), *steps[at:])
    return steps


@settings(max_examples=12, deadline=None)
@given(number=st.integers(1, 400), suits=st.sampled_from([1, 2]), at=st.integers(0, 30))
def test_a_shortened_line_is_legal_wins_and_is_never_longer(
    number: int, suits: int, at: int
) -> None:
    board, steps = _raw_win(number, suits)
    padded = _with_detour(board, steps, at)
    short = shorten(board, padded, over_empty=False)
    assert len(short) <= len(padded)
    if padded != steps:
        assert len(short) < len(padded)  # the back-and-forth at least goes
    start = deal(number, preset("classic", suits))
    # the engine replays it to a win (SolutionRejected otherwise)
    assert replay(start, verified_actions(start, short, must_win=True)).won


def test_shortening_cuts_a_line_that_comes_back_to_a_position() -> None:
    board, steps = _raw_win(5, 1)
    short = shorten(board, steps, over_empty=False)
    padded = _with_detour(board, short, 3)
    assert len(padded) == len(short) + 2
    assert len(shorten(board, padded, over_empty=False)) <= len(short)


def test_polishing_finds_a_shorter_win_and_says_what_it_spent() -> None:
    board, steps = _raw_win(3, 1)
    better, spent = polish(board, steps, Limits(nodes=20_000), over_empty=False)
    assert len(better) < len(steps)
    assert 0 < spent <= 20_000 + 2_000  # a beam finishes its level
    start = deal(3, preset("classic", 1))
    verified_actions(start, better, must_win=True)


def test_solve_with_polish_gives_a_shorter_verified_line() -> None:
    start = deal(3, preset("classic", 1))
    plain = solve(start)
    short = solve(start, polish_nodes=20_000)
    assert short.solved and replay(start, short.actions).won
    assert len(short.actions) < len(plain.actions)
    assert short.nodes == plain.nodes  # the effort to find a win is unchanged
    assert short.polish_nodes > 0 and plain.polish_nodes == 0


def test_progress_is_reported_with_growing_node_counts() -> None:
    seen: list[tuple[int, int]] = []
    found = solve(deal(1, preset("classic", 4)), nodes=6_000,
                  progress=lambda nodes, depth: seen.append((nodes, depth)))
    assert seen, "a 6,000-node search reports progress"
    counts = [nodes for nodes, _ in seen]
    assert counts == sorted(counts) and counts[-1] <= found.nodes
    assert all(depth >= 0 for _, depth in seen)


def test_polishing_a_one_action_win_returns_at_once() -> None:
    from tests.engine.solver_positions import one_move_from_winning

    state = one_move_from_winning()
    board = board_from_state(state)
    assert polish(board, ((1, 0, 6),), Limits(nodes=1_000), over_empty=False) == (((1, 0, 6),), 0)
    two = solve(state, polish_nodes=1_000)
    assert two.solved and len(two.actions) == 1


def test_tail_beams_alone_shorten_the_end_of_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.engine.solver.polish as polish_module

    monkeypatch.setattr(polish_module, "ROOT_SHARE", 0.0)  # no beam from the start
    board, steps = _raw_win(3, 1)
    better, spent = polish(board, steps, Limits(nodes=20_000), over_empty=False)
    assert len(better) < len(steps) and spent > 0
    assert better[0] == steps[0]  # the start of the line is kept
    start = deal(3, preset("classic", 1))
    assert replay(start, verified_actions(start, better, must_win=True)).won


def test_the_position_after_a_line_is_the_engines() -> None:
    from app.engine.solver.polish import _position

    board, steps = _raw_win(2, 2)
    start = deal(2, preset("classic", 2))
    actions = verified_actions(start, steps[:30], must_win=False)
    after, engine = _position(board, steps[:30]), board_from_state(replay(start, actions))
    assert after.columns == engine.columns and after.removed == engine.removed
    assert after.rows[after.dealt:] == engine.rows  # the stock left
