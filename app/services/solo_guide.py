"""Guided hints, "undo to the last winnable position" and cancellable searches (solo, daily).

The searches are :mod:`app.rewards.guide`'s (full knowledge of the player's own deal:
why that is fair is in docs/solo-and-daily.md, "Guided hints"). This module keeps, per
game and in this process:

- the **positions seen** in the game (every position its log went through, undos
  included), rebuilt from the log when this process has not followed every step, so
  that a hint never leads back to one of them;
- the **line** the last hint came from: a player who follows it gets the next hint
  without a search;
- the positions **known to be winnable** (on a verified line) and the last walk-back,
  so that "undo to the last winnable position" after a "no win from here" hint is
  instant.

Every search runs through ``off_loop`` (a solver process) under one time budget (setting
``solo_rescue_seconds``), with a stop flag: ``solo_cancel`` sets it and the command that
waits answers at once; a search that overruns its budget by ``HARD_MARGIN`` (a busy
solver pool) is answered as not found in time, never later.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.solo_models import SoloGame
from app.engine.actions import Action, Undo
from app.engine.game import push
from app.engine.solver.advice import reason_for
from app.engine.state import GameState
from app.rewards.guide import Guidance, Key, WalkBack, guide, keys_along, position_key, walk_back
from app.rooms.seat_log import actions_of
from app.rooms.seat_rule import Answered
from app.runtime.solver_worker import StopFlag, off_loop
from app.services import solo_frames
from app.services import solo_store as games
from app.services.solo_assists import record_assist
from app.services.solo_lifecycle import LiveGame, SoloGames
from app.services.solo_seat import seat_of
from app.wire.base import Numbered
from app.wire.solo import SoloHint, SoloStep

Payload = dict[str, Any]
R = TypeVar("R")
HARD_MARGIN = 1.5
"""Seconds past the search budget after which a command answers "not in time" anyway
(the solver pool may be busy with other players' searches): 2.5 + 1.5 = 4 s, which
leaves a second for the database and the game's lock before 5 s."""
REMEMBERED_GAMES = 2_000
Ended = Literal["done", "cancelled", "late"]


@dataclass
class GuideMemory:
    """What the guide keeps of one game between two hints."""

    count: int = -1
    """The game's action count the ``seen`` set covers (-1: not built yet)."""
    state: GameState | None = None
    seen: set[Key] = field(default_factory=set)
    known: set[Key] = field(default_factory=set)
    line: tuple[Key, tuple[Action, ...]] | None = None
    """(the position it starts from, the winning line's actions from there)."""
    back: tuple[Key, WalkBack] | None = None
    """The last walk-back and the position it was computed from."""


@dataclass
class Running:
    player_id: int
    flag: StopFlag
    cancelled: asyncio.Event = field(default_factory=asyncio.Event)


class SoloGuide(SoloGames):
    """Solo and daily play's guided hint, undo-to-winnable and cancel."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._memory: OrderedDict[int, GuideMemory] = OrderedDict()
        self._running: dict[int, Running] = {}

    async def _offer_finish(self, live: LiveGame, state: GameState, game: SoloGame) -> bool:
        """Whether to offer the auto-complete here (``SoloPlay`` decides)."""
        return False

    def _refuse(self, game: SoloGame, state: GameState, seq: int,
                last: Answered | None) -> Numbered | None:
        """The answer to a step that is not applied (``SoloPlay`` says which)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ hint

    async def guided_hint(self, session: AsyncSession, game: SoloGame, state: GameState
                          ) -> SoloHint:
        """The hint frame for ``state``: the next action of a winning line that leads to
        a position not seen in this game, or "no win from here" with how far back."""
        memory = await self._seen(session, game, state)
        here = position_key(state)
        action = self._next_on_line(memory, here, state)
        if action is not None:
            return self._hint_frame(game, memory, state, action)
        found, ended = await self._cancellable(
            game, guide, state, avoid=frozenset(memory.seen), known=frozenset(memory.known),
            deal_of=deal_of(game), seconds=self._rescue_seconds)
        if found is None or found.status == "stopped":
            return self._hint_answer(game, None, "cancelled" if ended == "cancelled" else
                                     "no_win", "cancelled" if ended == "cancelled" else
                                     "no win found in time")
        if found.status == "line":
            self._learn(memory, state, found.actions)
            if not found.actions:  # already won: nothing to hint
                return self._hint_answer(game, None, "line", "the game is won")
            return self._hint_frame(game, memory, state, found.actions[0])
        return self._no_win(game, memory, here, found)

    def _next_on_line(self, memory: GuideMemory, here: Key, state: GameState
                      ) -> Action | None:
        if memory.line is None or memory.line[0] != here or not memory.line[1]:
            return None
        action = memory.line[1][0]
        if position_key(push(state, action)) in memory.seen:
            return None  # the line goes back to a position seen: find another
        return action

    @staticmethod
    def _learn(memory: GuideMemory, state: GameState, line: tuple[Action, ...]) -> None:
        memory.line = (position_key(state), line)
        memory.known |= keys_along(state, line)[1]

    def _hint_frame(self, game: SoloGame, memory: GuideMemory, state: GameState,
                    action: Action) -> SoloHint:
        assert memory.line is not None
        rest = memory.line[1][1:]
        memory.line = (position_key(push(state, action)), rest)
        # The words of a duel's hint (translated by the client), for the move chosen.
        return self._hint_answer(game, action, "line", reason_for(state, action))

    def _no_win(self, game: SoloGame, memory: GuideMemory, here: Key, found: Guidance
                ) -> SoloHint:
        back = found.back
        if back is not None and back.status in ("found", "start"):
            memory.back = (here, back)
            return self._hint_answer(game, None, "no_win",
                                     f"no win from here: undo to move {back.move}",
                                     undos=back.undos, move=back.move)
        return self._hint_answer(game, None, "no_win", "no win found from here")

    @staticmethod
    def _hint_answer(game: SoloGame, action: Action | None, verdict: str, reason: str, *,
                     undos: int | None = None, move: int | None = None) -> SoloHint:
        return solo_frames.hint(game.id, action, verdict, reason, undos=undos, move=move)

    # ------------------------------------------------------------------ undo to winnable

    async def undo_to_winnable(self, *, player_id: int, game_id: int, seq: int
                               ) -> list[Numbered]:
        """Undo, as the player, back to the most recent winnable position of the game.

        Answered with ``solo_assist`` (kind ``undo_to_winnable``): the undos are the
        steps, logged as the player's own undos with seqs ``seq``, ``seq + 1``, …
        """
        async with self._owned(player_id=player_id, game_id=game_id) as (live, session, game):
            state = await self._position(session, game, live)
            refused = self._refuse(game, state, seq, None)
            if refused is not None:
                return [refused]
            memory = await self._seen(session, game, state)
            here = position_key(state)
            back: WalkBack | None = None
            ended: Ended = "done"
            if memory.back is not None and memory.back[0] == here:
                back = memory.back[1]
            else:
                back, ended = await self._cancellable(
                    game, walk_back, state, avoid=frozenset(memory.seen),
                    known=frozenset(memory.known), deal_of=deal_of(game),
                    seconds=self._rescue_seconds)
            steps: list[SoloStep] = []
            if back is None or back.status not in ("found", "start") or back.undos < 1:
                verdict = "cancelled" if ended == "cancelled" else (
                    "no_way_out" if back is not None and back.status == "nothing" else "unknown")
                message = {"cancelled": "cancelled", "no_way_out": "nothing to undo",
                           "unknown": "no winnable position found in time"}[verdict]
            else:
                at_move = state.actions
                match = await self._match(session, game, live)
                made = self._play_for(match, (Undo(),) * back.undos, seq, "player", steps)
                await self._store(session, game, made, by="player")
                await record_assist(session=session, game=game, kind="undo_to_winnable",
                                    at=self.clock(), seq=at_move, actions=back.undos)
                await session.commit()
                live.match = made[-1].match if made else match
                live.forget_answers()
                live.last_assist = live.finish_line = None
                state = seat_of(live.match).game.state
                memory.back = None
                await self._seen(session, game, state)
                if back.line:
                    self._learn(memory, state, back.line)
                verdict = "way_out"
                message = f"back to move {back.move}: a win from here"
            offered = await self._offer_finish(live, state, game)
            answer = solo_frames.assist(
                game, state, kind="undo_to_winnable", verdict=verdict, message=message,
                steps=steps, cost=0, elapsed_ms=self._elapsed(game), offered=offered)
        return [answer]

    # ------------------------------------------------------------------ cancel

    async def cancel(self, *, player_id: int, game_id: int) -> bool:
        """Stop the search running for my game (a hint, a rescue, an undo-to-winnable):
        the command that waits for it answers at once. False when none runs here."""
        running = self._running.get(game_id)
        if running is None or running.player_id != player_id:
            return False
        running.flag.set()
        running.cancelled.set()
        return True

    async def _cancellable(self, game: SoloGame, call: Callable[..., R], /, *args: Any,
                           **kwargs: Any) -> tuple[R | None, Ended]:
        """``call(*args, stop=flag, **kwargs)`` off the loop; (None, why) when the player
        cancelled it or it overran its budget by ``HARD_MARGIN``."""
        flag = StopFlag.new()
        running = Running(game.player_id, flag)
        self._running[game.id] = running
        job = asyncio.ensure_future(off_loop(call, *args, stop=flag, **kwargs))
        waiter = asyncio.ensure_future(running.cancelled.wait())
        seconds = self._rescue_seconds
        ended: Ended = "done"
        try:
            done, _ = await asyncio.wait(
                {job, waiter}, return_when=asyncio.FIRST_COMPLETED,
                timeout=None if seconds is None else seconds + HARD_MARGIN)
            if waiter in done:  # the search may have stopped too: its answer is moot
                ended = "cancelled"
            elif job in done:
                return job.result(), "done"
            else:
                ended = "late"
            return None, ended
        finally:
            waiter.cancel()
            if self._running.get(game.id) is running:
                del self._running[game.id]
            if job.done():
                flag.clear()
            else:  # cancelled, late, or our caller went away: stop it, forget its answer
                flag.set()
                job.add_done_callback(lambda _: _forget(job, flag))

    # ------------------------------------------------------------------ positions seen

    async def _seen(self, session: AsyncSession, game: SoloGame, state: GameState
                    ) -> GuideMemory:
        """The game's memory with every position of its log in ``seen``."""
        memory = self._memory.get(game.id)
        if memory is None:
            memory = self._memory[game.id] = GuideMemory()
            while len(self._memory) > REMEMBERED_GAMES:
                self._memory.popitem(last=False)
        else:
            self._memory.move_to_end(game.id)
        if memory.count != state.actions:
            actions = actions_of(await games.logged_actions(session=session, game_id=game.id))
            if memory.state is not None and 0 <= memory.count <= len(actions):
                _, keys = keys_along(memory.state, actions[memory.count:])
            else:
                _, keys = keys_along(games.start_state(game), actions)
            memory.seen |= keys
            memory.count, memory.state = state.actions, state
        memory.seen.add(position_key(state))
        return memory


def deal_of(game: SoloGame) -> tuple[int, int] | None:
    """(number, suits) of the game's solvable deal, whose verified win is known."""
    return (game.number, game.suits) if game.solvable_only else None


def _forget(job: asyncio.Future[Any], flag: StopFlag) -> None:
    """A forgotten search ended: remove its flag, read its outcome (no "exception never
    retrieved" warning)."""
    flag.clear()
    if not job.cancelled():
        job.exception()
