"""Live solo and daily play: open, act, hint, rescue, auto-complete (the WebSocket's side).

Every action, the player's own and those an assist plays for them, is a step of the duel
core on the game as a one-seat match (``app/services/solo_seat.py``); legal ones are
logged (``app.services.solo_store``) before they are answered. Each game has a lock in
this process, and its match is cached between actions; the cache is checked against the
row on every command and rebuilt from the log when another process (or a restart)
moved on. Answers are the frames of docs/solo-and-daily.md section 5.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.solo_models import SoloGame
from app.engine.actions import Action
from app.engine.solver.advice import Rescue
from app.engine.state import GameState
from app.rewards.assist import (
    RESCUE_ACTIONS,
    RESCUE_NODES,
    auto_complete,
    auto_complete_available,
)
from app.rewards.guide import rescue_on_line
from app.rewards.points import rescue_cost
from app.rooms import duel_core as core
from app.rooms.seat_rule import ACCEPT, SOLO, Answered, Refuse, judge
from app.rooms.step_writes import write_step
from app.runtime.solver_worker import off_loop
from app.services import solo_frames
from app.services import solo_store as games
from app.services.solo_assists import record_assist
from app.services.solo_guide import SoloGuide, deal_of
from app.services.solo_lifecycle import LiveGame, position_of
from app.services.solo_seat import SoloRowStore, seat_of
from app.services.solo_store import SoloGameOver
from app.wire.base import Numbered
from app.wire.solo import SoloAck, SoloAssist, SoloHint, SoloSnapshot, SoloStep

Payload = dict[str, Any]


class SoloPlay(SoloGuide):
    """Live play of solo and daily games: open, act, hint, rescue, auto-complete (the
    guided hint, undo-to-winnable and cancel: ``SoloGuide``)."""

    async def open(self, *, player_id: int, game_id: int) -> list[Numbered]:
        """My game's snapshot; the first open starts its clock."""
        async with self._owned(player_id=player_id, game_id=game_id) as (live, session, game):
            expired = games.expire_if_due(game, now=self.clock())
            match = await self._match(session, game, live)
            opening = core.open_seat(match, player_id, self._seconds())  # the first time
            if opening is not None:
                await write_step(SoloRowStore(session, game, by="player"), opening)
            notes = await self._commit(session, game if expired else None)
            if opening is not None:
                live.match = opening.match
            state = await self._position(session, game, live)
            offered = await self._offer_finish(live, state, game)
            frames = [solo_frames.snapshot(game, state, elapsed_ms=self._elapsed(game),
                                           offered=offered)]
        return [*frames, solo_frames.over(game), *notes] if expired else [*frames]

    async def snapshots(self, *, player_id: int) -> list[SoloSnapshot]:
        """Snapshots of my opened games in progress (a fresh connection's resync)."""
        async with self._sessions() as session:
            ids = await games.opened_in_progress(session=session, player_id=player_id)
        frames: list[SoloSnapshot] = []
        for game_id in ids:
            frames.extend(f for f in await self.open(player_id=player_id, game_id=game_id)
                          if isinstance(f, SoloSnapshot) and f.status == "playing")
        return frames

    async def act(self, *, player_id: int, game_id: int, seq: int, action: Payload
                  ) -> list[Numbered]:
        """One action of the player: the duel core's step on the game's one-seat match
        (``app/services/solo_seat.py``), stored before it is answered."""
        async with self._owned(player_id=player_id, game_id=game_id) as (live, session, game):
            if games.expire_if_due(game, now=self.clock()):
                notes = await self._commit(session, game)
                state = await self._position(session, game, live)
                return [self._reject(game, state, seq, "game_over", "the daily's window has "
                                     "closed: the game expired"), solo_frames.over(game), *notes]
            match = await self._match(session, game, live)
            step = core.act(match, player_id, seq, action, self._seconds())
            assert step.reply is not None
            if not step.writes:  # refused, or answered again: nothing changed
                return [solo_frames.answer(game, seat_of(match).game.state, step.reply,
                                           elapsed_ms=self._elapsed(game), offered=False)]
            notes = await self._store(session, game, (step,), by="player")
            seat = seat_of(step.match)
            offered = await self._offer_finish(live, seat.game.state, game)
            ack = solo_frames.answer(game, seat.game.state, step.reply,
                                     elapsed_ms=self._elapsed(game), offered=offered)
            # The answer a resend of this seq gets again (a step that wrote but was
            # refused, a duel's late action, cannot happen to an untimed seat).
            live.match = step.match.with_seat(
                seat.evolve(last_ack=ack) if isinstance(ack, SoloAck) else seat)
        return self._with_end(game, [ack], notes)

    @staticmethod
    def _with_end(game: SoloGame, frames: Sequence[Numbered], notes: Sequence[Numbered]
                  ) -> list[Numbered]:
        """The answer, then ``solo_over`` and the listeners' frames (badges) at an end."""
        return [*frames, solo_frames.over(game), *notes] if game.status != "playing" else [
            *frames]

    def _refuse(self, game: SoloGame, state: GameState, seq: int,
                last: Answered | None) -> Numbered | None:
        """The answer to a step that is not applied: duplicate, over, unopened, bad seq
        (the one rule, ``app/rooms/seat_rule.py``, as solo plays it: ``SOLO``)."""
        verdict = judge(SOLO, seq, state.actions, None if last is None else last.seq,
                        game.started_at is not None,
                        None if game.status == "playing" else game.status)
        if verdict is ACCEPT:
            return None
        if isinstance(verdict, Refuse):
            return self._reject(game, state, seq, verdict.code, verdict.message)
        assert last is not None  # solo answers duplicates from its cache only
        return last.again()

    async def hint(self, *, player_id: int, game_id: int) -> SoloHint:
        """A guided hint (``SoloGuide.guided_hint``: the player's whole deal, never a
        position seen before); counted once per answer, unless cancelled."""
        async with self._owned(player_id=player_id, game_id=game_id) as (live, session, game):
            if game.status != "playing":
                raise SoloGameOver(f"the game is over ({game.status})")
            state = await self._position(session, game, live)
            answer = await self.guided_hint(session, game, state)
            if answer.verdict != "cancelled":
                game.hints += 1
                await record_assist(session=session, game=game, kind="hint",
                                    at=self.clock(), seq=state.actions)
            await session.commit()
        return answer

    async def rescue(self, *, player_id: int, game_id: int, seq: int) -> list[Numbered]:
        """Up to 5 actions of a verified win played for the player, or advice to undo."""
        async with self._owned(player_id=player_id, game_id=game_id) as (live, session, game):
            state = await self._position(session, game, live)
            refused = self._refuse(game, state, seq, live.last_assist)
            if refused is not None:
                return [refused]
            if await self._offer_finish(live, state, game):
                # The free auto-complete finishes from here: a paid rescue would charge for
                # what costs nothing (nothing is played, no seq used).
                return [self._reject(game, state, seq, "auto_complete_ready",
                                     "the auto-complete can finish this game, for free")]
            found, ended = known_way_out(live, state), "done"
            if found is None:
                searched, ended = await self._cancellable(
                    game, rescue_on_line, state, deal_of(game), nodes=RESCUE_NODES,
                    seconds=self._rescue_seconds)
                found = searched or Rescue("unknown", (), 0, f"no way out found ({ended})", 0)
            steps: list[SoloStep] = []
            notes: list[Numbered] = []
            if ended != "cancelled":  # a search the player stopped helped nobody
                await record_assist(session=session, game=game, kind="rescue",
                                    at=self.clock(), seq=state.actions,
                                    actions=min(len(found.actions), RESCUE_ACTIONS)
                                    if found.status == "way_out" else 0)
            if found.status == "way_out":
                game.rescues += 1
                state, notes = await self._play_steps(session, live, game, found.actions,
                                                      seq, "rescue", steps)
                live.way_out = (position_of(state), found.line[len(steps):])
            verdict = "cancelled" if ended == "cancelled" else found.status
            answer = await self._assist(live, game, state, kind="rescue", verdict=verdict,
                                        message=found.message, steps=steps, seq=seq,
                                        cost=rescue_cost(games.options_of(game)) if steps else 0)
        return self._with_end(game, [answer], notes)

    async def auto_complete(self, *, player_id: int, game_id: int, seq: int
                            ) -> list[Numbered]:
        """Play the rest of a game the server offered to finish."""
        async with self._owned(player_id=player_id, game_id=game_id) as (live, session, game):
            state = await self._position(session, game, live)
            refused = self._refuse(game, state, seq, live.last_assist)
            if refused is not None:
                return [refused]
            if not await self._offer_finish(live, state, game) or live.finish_line is None:
                return [self._reject(game, state, seq, "auto_complete_unavailable",
                                     "auto-complete needs an empty stock, every card face up "
                                     "and a proved win")]
            line = await self._polished(state, live.finish_line[1])
            steps: list[SoloStep] = []
            game.auto_completed = True
            await record_assist(session=session, game=game, kind="auto_complete",
                                at=self.clock(), seq=state.actions, actions=len(line))
            state, notes = await self._play_steps(session, live, game, line, seq,
                                                  "auto_complete", steps)
            answer = await self._assist(live, game, state, kind="auto_complete", verdict="ready",
                                        message=f"{len(steps)} actions to win", steps=steps,
                                        seq=seq, cost=0)
        return self._with_end(game, [answer], notes)

    async def _play_steps(
        self, session: AsyncSession, live: LiveGame, game: SoloGame,
        actions: tuple[Action, ...], seq: int, by: str, steps: list[SoloStep],
    ) -> tuple[GameState, list[Numbered]]:
        """Play and store ``actions`` for the player (``_play_for``: steps of the core),
        end the game if they win it, commit; the new position and the listeners' frames."""
        assert live.match is not None
        made = self._play_for(live.match, actions, seq, by, steps)
        notes = await self._store(session, game, made, by=by)
        if made:
            live.match = made[-1].match
        return seat_of(live.match).game.state, notes

    async def _assist(self, live: LiveGame, game: SoloGame, state: GameState, *,
                      kind: str, verdict: str, message: str, steps: list[SoloStep], seq: int,
                      cost: int) -> SoloAssist:
        offered = await self._offer_finish(live, state, game)
        answer = solo_frames.assist(game, state, kind=kind, verdict=verdict, message=message,
                                    steps=steps, cost=cost, elapsed_ms=self._elapsed(game),
                                    offered=offered)
        if steps:
            live.last_assist = Answered(seq, answer)
            live.forget_answers()
        return answer

    async def _offer_finish(self, live: LiveGame, state: GameState, game: SoloGame) -> bool:
        """Whether to offer auto-complete here (solved once per position, then kept):
        asked after every action of a game's end, so the first win found will do
        (unpolished: milliseconds, where the polish took up to half a second)."""
        if game.status != "playing" or not auto_complete_available(state):
            return False
        if live.finish_line is not None and live.finish_line[0] == state.actions:
            return True
        found = await off_loop(auto_complete, state, seconds=self._auto_seconds, polish=False)
        live.finish_line = (state.actions, found.actions) if found.ready else None
        return found.ready

    async def _polished(self, state: GameState, offered: tuple[Action, ...]
                        ) -> tuple[Action, ...]:
        """The line the auto-complete plays: the shortest the polish finds within the
        budget (fewer actions: more of the solo points' economy bonus), else the one
        offered."""
        found = await off_loop(auto_complete, state, seconds=self._auto_seconds)
        if found.ready and len(found.actions) <= len(offered):
            return found.actions
        return offered

    # ------------------------------------------------------------------ frames


def known_way_out(live: LiveGame, state: GameState) -> Rescue | None:
    """The rest of the last rescue's winning line when the player asks again from where it
    stopped: the same verified line, without a search that costs up to seconds of CPU."""
    if live.way_out is None:
        return None
    where, rest = live.way_out
    if not rest or where != position_of(state):
        return None
    return Rescue("way_out", rest[:RESCUE_ACTIONS], len(rest),
                  f"a way out: {len(rest)} actions to win", 0, rest)
