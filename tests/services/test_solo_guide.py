"""Guided hints of solo and daily games (issue 24): never a position seen before, "no win
from here" with the way back, undo to the last winnable position, cancel."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import msgspec
import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.engine.actions import Action, Deal, Undo, action_from_json
from app.engine.game import is_legal, legal_moves, push
from app.engine.solver import solve
from app.engine.state import GameState
from app.rewards.guide import Guidance, position_key, walk_back
from app.rewards.solo import SoloOptions, solo_start
from app.services import solo_guide
from app.services import solo_store as games
from app.wire.game import UndoAction
from tests.support.frames import kind
from tests.support.solo import opened_game


async def _game(sessions: async_sessionmaker[AsyncSession], number: int, suits: int
                ) -> tuple[Any, int, int, GameState]:
    play, ann, game_id, start = await opened_game(sessions, number, suits,
                                                  name=f"Ann{number}x{suits}")
    return play, ann, game_id, start.state


@pytest.mark.parametrize(("number", "suits"), [(3, 1), (2, 2)])
async def test_following_hints_never_repeats_a_position_and_wins(
    session_factory: async_sessionmaker[AsyncSession], number: int, suits: int,
) -> None:
    """A careless player (a random move now and then, an undo now and then) who otherwise
    follows the hints: no hint ever leads to a position seen before in the game, and the
    hints (with undo-to-winnable when they say so) win it."""
    play, ann, game_id, state = await _game(session_factory, number, suits)
    rng = random.Random(number * 10 + suits)
    seen = {position_key(state)}
    seq = 0
    for turn in range(600):
        if state.won:
            break
        if turn < 40 and rng.random() < 0.25:  # the player's own moves, good or bad
            choices: list[Action] = [*legal_moves(state)]
            if state.previous is not None:
                choices.append(Undo())
            action = rng.choice(choices)
        else:
            hint = await play.hint(player_id=ann, game_id=game_id)
            if hint.verdict == "no_win":
                assert hint.undos and hint.undo_to_move is not None
                [answer] = await play.undo_to_winnable(player_id=ann, game_id=game_id,
                                                       seq=seq + 1)
                assert answer.verdict == "way_out", answer
                assert len(answer.steps) == hint.undos
                for _ in answer.steps:
                    state = push(state, Undo())
                    seen.add(position_key(state))
                seq = answer.seq
                assert seq == state.actions
                continue
            assert hint.verdict == "line", hint
            action = action_from_json(msgspec.to_builtins(hint.action))  # as the client
            assert position_key(push(state, action)) not in seen, (turn, hint)
        seq += 1
        [ack, *_] = await play.act(player_id=ann, game_id=game_id, seq=seq,
                                   action=action.to_json())
        assert kind(ack) == "solo_ack", ack
        state = push(state, action)
        seen.add(position_key(state))
    assert state.won
    async with session_factory() as session:
        game = await games.get_game(session=session, game_id=game_id)
        assert game.status == "won" and game.hints > 0


async def test_no_win_from_here_says_how_far_back_and_undo_goes_there(
    session_factory: async_sessionmaker[AsyncSession],
) -> None:
    """2 suits, deal 1: the five deals at once leave no win the solver finds; the hint
    says so with the move to go back to, and undo-to-winnable undoes to a winnable one."""
    play, ann, game_id, state = await _game(session_factory, 1, 2)
    seq = 0
    while is_legal(state, Deal()):
        seq += 1
        await play.act(player_id=ann, game_id=game_id, seq=seq, action=Deal().to_json())
        state = push(state, Deal())
    started = time.perf_counter()
    hint = await play.hint(player_id=ann, game_id=game_id)
    assert hint.verdict == "no_win" and hint.action is None, hint
    assert hint.undos >= 1 and hint.undo_to_move == 5 - hint.undos
    assert f"undo to move {hint.undo_to_move}" in hint.reason
    [answer] = await play.undo_to_winnable(player_id=ann, game_id=game_id, seq=seq + 1)
    assert kind(answer) == "solo_assist" and answer.kind == "undo_to_winnable"
    assert answer.verdict == "way_out" and answer.points_cost == 0
    assert [s.action for s in answer.steps] == [UndoAction()] * hint.undos
    assert {s.by for s in answer.steps} == {"player"}
    assert time.perf_counter() - started < 30
    for _ in range(hint.undos):
        state = push(state, Undo())
    assert answer.seq == state.actions and solve(state, nodes=300_000).solved
    async with session_factory() as session:
        game = await games.get_game(session=session, game_id=game_id)
        log = await games.logged_actions(session=session, game_id=game_id)
        assert game.undos == hint.undos and game.actions_count == state.actions
        assert {entry.by for entry in log} == {"player"}  # ordinary undos of the player
    after = await play.hint(player_id=ann, game_id=game_id)  # the line found is kept
    assert after.verdict == "line" and after.action is not None
    [stale] = await play.undo_to_winnable(player_id=ann, game_id=game_id, seq=seq + 1)
    assert kind(stale) == "solo_reject" and stale.code == "stale_seq"


def test_walk_back_finds_the_most_recent_winnable_position() -> None:
    """Against every position of the undo stack tested one by one: the same answer."""
    state = solo_start(2, SoloOptions(2)).state
    while is_legal(state, Deal()):
        state = push(state, Deal())
    back = walk_back(state, deal_of=(2, 2))
    assert back.status == "found" and back.undos >= 1
    chain = [state]
    while chain[-1].previous is not None:
        chain.append(chain[-1].previous)  # type: ignore[arg-type]
    first = next(k for k in range(1, len(chain))
                 if solve(chain[k], nodes=60_000).solved)  # no polish: only "solved" counts
    assert back.undos == first and back.move == len(chain) - 1 - first


async def test_cancel_stops_a_search_and_the_hint_answers_at_once(
    session_factory: async_sessionmaker[AsyncSession], monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[bool] = []

    def endless(state: GameState, **kwargs: Any) -> Guidance:
        stop = kwargs["stop"]
        deadline = time.perf_counter() + 20
        while not stop() and time.perf_counter() < deadline:
            time.sleep(0.01)
        calls.append(stop())
        return Guidance("stopped", ())

    monkeypatch.setattr(solo_guide, "guide", endless)
    play, ann, game_id, _ = await _game(session_factory, 4, 1)
    asked = asyncio.create_task(play.hint(player_id=ann, game_id=game_id))
    await asyncio.sleep(0.2)
    assert not await play.cancel(player_id=ann + 1, game_id=game_id)  # not mine
    started = time.perf_counter()
    assert await play.cancel(player_id=ann, game_id=game_id)
    answer = await asyncio.wait_for(asked, 2)
    assert time.perf_counter() - started < 1
    assert answer.verdict == "cancelled" and answer.action is None
    for _ in range(100):  # the search itself stopped (the flag reached it)
        if calls:
            break
        await asyncio.sleep(0.02)
    assert calls == [True]
    async with session_factory() as session:
        game = await games.get_game(session=session, game_id=game_id)
        assert game.hints == 0  # a cancelled hint told nothing: not counted
    assert not await play.cancel(player_id=ann, game_id=game_id)  # nothing runs now
