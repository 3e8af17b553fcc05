"""A player's action on a live duel: its reply as a value, its step's effects after.

``async with duels.acting(...) as reply`` (``DuelService.acting``): under the game's lock
the duel core computes the step and the runner makes it (its writes durable, its seat
adopted); the block gets the reply, final by then, and the adapter sends it there. As the
block is left the step's effects are carried out, then the lock is let go. So the ack
leaves before anything its step publishes (the spectators' frame, the opponent's
progress, the other processes' news: with Redis, round trips; a game_over; the match's
result), while what the step publishes, still under the lock, keeps its order. The
adapter decides when the reply leaves; the runner knows nothing of the player.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.rooms import duel_core as core
from app.rooms.duel_core import Reply
from app.rooms.errors import NotReadNow
from app.rooms.live_match import LiveMatch
from app.rooms.step_runner import Made, StepRunner
from app.rooms.store import SeqTaken, StoreError
from app.runtime.clock import Clock
from app.wire import duel as wire

Payload = dict[str, Any]


@dataclass(kw_only=True, eq=False)
class Actions:
    """How a duel service makes an action's step. ``cached``: its copy of a match, if it
    holds one; ``match``: its copy, loaded if need be; ``reload``: a copy rebuilt from
    the log; ``peers``: other processes hold copies of the matches too."""

    runner: StepRunner
    clock: Clock
    cached: Callable[[int], LiveMatch | None]
    match: Callable[[int], Awaitable[LiveMatch]]
    reload: Callable[[int], Awaitable[LiveMatch]]
    peers: bool

    async def make(self, held: list[asyncio.Lock], player_id: int, match_id: int, seq: int,
                   action: Payload) -> tuple[LiveMatch, Made]:
        """The step made under the game's lock, and the copy that made it; the locks
        taken are in ``held``, for the caller to let go once the effects are carried out."""
        live = self.cached(match_id) or await self.match(match_id)
        await _hold(held, live.lock(player_id))
        return await self._act(held, live, player_id, seq, action)

    async def _act(self, held: list[asyncio.Lock], live: LiveMatch, player_id: int,
                   seq: int, action: Payload, *, fresh_copy: bool = False
                   ) -> tuple[LiveMatch, Made]:
        step = core.act(live.value, player_id, seq, action, self.clock())
        if self.peers and not fresh_copy and _ahead(step.reply, seq):
            # A seq past our copy's next one: another process (the player's other tab or
            # device) may have played meanwhile and its news not reached us yet.
            return await self._on_fresh_copy(held, live, player_id, seq, action)
        try:
            return live, await self.runner.make(live, player_id, step)
        except SeqTaken:
            # Another process logged this seq first (a duplicate, or a rejection with a resync).
            return await self._on_fresh_copy(held, live, player_id, seq, action)
        except StoreError as error:
            return live, _not_stored(live, player_id, seq, error)

    async def _on_fresh_copy(self, held: list[asyncio.Lock], live: LiveMatch, player_id: int,
                             seq: int, action: Payload) -> tuple[LiveMatch, Made]:
        """The log decides: rebuild the match from it and act as the fresh game would.
        The fresh copy's lock is held until its step's effects are carried out: they
        publish that copy's news, in order with its next steps'."""
        try:
            fresh = await self.reload(live.match_id)
        except NotReadNow as error:  # the log could not be read: nothing was written
            return live, _not_stored(live, player_id, seq, error)
        await _hold(held, fresh.lock(player_id))
        return await self._act(held, fresh, player_id, seq, action, fresh_copy=True)


class Acting:
    """``async with``: an action's step made under the game's lock, its reply (an ack or
    a refusal) the block's value; the step's effects carried out as the block is left,
    then the lock let go.

    A made step's effects happen even if the block raises (an answer that could not go
    out): the step is in the log and in memory, and the opponent, spectators and other
    processes must hear of it; the block's exception is raised after them."""

    __slots__ = ("_action", "_actions", "_held", "_live", "_made", "_match_id", "_player_id",
                 "_seq")

    def __init__(self, actions: Actions, player_id: int, match_id: int, seq: int,
                 action: Payload) -> None:
        self._actions, self._player_id, self._match_id = actions, player_id, match_id
        self._seq, self._action = seq, action
        self._held: list[asyncio.Lock] = []

    async def __aenter__(self) -> Reply:
        try:
            self._live, self._made = await self._actions.make(
                self._held, self._player_id, self._match_id, self._seq, self._action)
        except BaseException:
            _let_go(self._held)
            raise
        reply = self._made.reply
        assert reply is not None  # the duel core replies to every action
        return reply

    async def __aexit__(self, *exc_info: object) -> None:
        try:
            await self._actions.runner.carry_out(self._live, self._player_id, self._made)
        finally:
            _let_go(self._held)


async def _hold(held: list[asyncio.Lock], lock: asyncio.Lock) -> None:
    await lock.acquire()
    held.append(lock)


def _let_go(held: list[asyncio.Lock]) -> None:
    while held:
        held.pop().release()


def _ahead(reply: Reply | None, seq: int) -> bool:
    """A refusal of a seq beyond the next one of the copy that answered."""
    return (isinstance(reply, wire.Reject) and reply.code == "bad_seq"
            and reply.next_seq is not None and seq > reply.next_seq)


def _not_stored(live: LiveMatch, player_id: int, seq: int, error: Exception) -> Made:
    """Nothing was written: a refusal, and no effects."""
    return Made(core.reject(live.value, live.game_of(player_id), seq, "not_stored",
                            f"not saved, try again: {error}"))
