"""Solo and daily play: start, open, act, hint, rescue, auto-complete, abandon.

The same authoritative engine as duels judges every action; legal ones are logged
(``app.services.solo_games``) before they are answered. Each game has a lock in this
process, and its position is cached between actions; the cache is checked against the
row's action count on every step and rebuilt from the log when another process (or a
restart) moved on. Answers are the frames of docs/solo-and-daily.md section 5.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import SoloGame
from app.engine.actions import Action, ActionFormatError, action_from_json
from app.engine.daily import utc_day
from app.engine.errors import IllegalAction
from app.engine.game import apply
from app.engine.solver import hint as visible_hint
from app.engine.state import GameState
from app.rewards.assist import RESCUE_NODES, auto_complete, auto_complete_available, rescue_actions
from app.rewards.points import rescue_cost
from app.rewards.solo import SoloStart, daily_game
from app.rooms.projection import events_json, game_view
from app.services import daily
from app.services import solo_games as games
from app.services.daily import DailyAlreadyPlayed
from app.services.settled import Settled, SettledEvents
from app.services.solo_games import GameOver
from app.services.solo_views import over_frame

Payload = dict[str, Any]
Publish = Callable[[int, Payload], Awaitable[None]]
Clock = Callable[[], datetime]
CACHED_GAMES = 10_000


def utcnow() -> datetime:
    return datetime.now(UTC)


async def _nowhere(player_id: int, frame: Payload) -> None:
    """No live layer (REST-only apps, tests): frames for other connections are dropped."""


@dataclass
class _Live:
    """What this process keeps of one game between two of its steps."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    state: GameState | None = None
    last_ack: tuple[int, Payload] | None = None  # (seq asked, answer) for duplicates
    last_assist: tuple[int, Payload] | None = None
    finish_line: tuple[int, tuple[Action, ...]] | None = None  # (at seq, actions)


@dataclass(frozen=True, slots=True)
class Created:
    game: SoloGame
    abandoned_game_id: int | None


class SoloPlay:
    def __init__(
        self, *, sessions: async_sessionmaker[AsyncSession], events: SettledEvents,
        publish: Publish = _nowhere, clock: Clock = utcnow,
        rescue_seconds: float | None = 5.0, auto_complete_seconds: float | None = 2.0,
    ) -> None:
        self._sessions = sessions
        self.events = events
        self.publish = publish
        self.clock = clock
        self._rescue_seconds = rescue_seconds
        self._auto_seconds = auto_complete_seconds
        self._live: OrderedDict[int, _Live] = OrderedDict()

    # ------------------------------------------------------------------ starting, ending

    async def create(self, *, player_id: int, start: SoloStart) -> Created:
        """A new solo game; my solo game in progress (if any) is abandoned."""
        now = self.clock()
        async with self._sessions() as session:
            old = await games.abandon_playing_solo(session=session, player_id=player_id, now=now)
            game = games.new_game(player_id=player_id, start=start, kind="solo", day=None,
                                  now=now)
            session.add(game)
            await session.commit()
        if old is not None:
            await self._announce_end(old)
        return Created(game, old.id if old is not None else None)

    async def create_daily(self, *, player_id: int, day: date, start: SoloStart
                           ) -> SoloGame:
        """``day``'s daily game of the player; its number is today's daily number."""
        async with self._sessions() as session:
            game = games.new_game(player_id=player_id, start=start, kind="daily", day=day,
                                  now=self.clock())
            session.add(game)
            await session.commit()
        return game

    async def abandon(self, *, player_id: int, game_id: int) -> SoloGame:
        live = self._entry(game_id)
        async with live.lock, self._sessions() as session:
            game = await games.owned_game(session=session, game_id=game_id,
                                          player_id=player_id, lock=True)
            if await self._expire(session, game):
                raise GameOver(f"the game is over ({game.status})")
            if game.status != "playing":
                raise GameOver(f"the game is over ({game.status})")
            games.end_game(game, status="abandoned", at=self.clock())
            await session.commit()
        await self._announce_end(game)
        return game

    async def refreshed(self, *, session: AsyncSession, game: SoloGame
                        ) -> SoloGame:
        """``game`` as a reader sees it: a daily past its window ends now as ``expired``."""
        if game.kind == "daily" and game.status == "playing":
            live = self._entry(game.id)
            async with live.lock:
                await session.refresh(game)
                if await self._expire(session, game):
                    await self._announce_end(game)
        return game

    async def start_daily(self, *, player_id: int) -> tuple[SoloGame, bool]:
        """Today's daily game of the player, and whether it was created now.

        One attempt per day: a game in progress comes back; one over is refused.
        """
        day = self.today()
        async with self._sessions() as session:
            existing = await games.daily_of(session=session, player_id=player_id, day=day)
        if existing is not None:
            if existing.status != "playing":
                raise DailyAlreadyPlayed(f"today's daily deal is played ({existing.status})",
                                         game_id=existing.id)
            return existing, False
        start = await asyncio.to_thread(daily_game, day)  # the solver, once a day
        try:
            return await self.create_daily(player_id=player_id, day=day, start=start), True
        except IntegrityError:  # a second start raced this one: the first one counts
            return (await self.start_daily(player_id=player_id))[0], False

    async def _won(self, session: AsyncSession, game: SoloGame, at: datetime) -> None:
        """End ``game`` as won; a daily win also refreshes the streak cache."""
        games.end_game(game, status="won", at=at)
        if game.kind == "daily":
            await session.flush()
            await daily.record_win(session=session, player_id=game.player_id)

    async def _expire(self, session: AsyncSession, game: SoloGame) -> bool:
        if not games.expire_if_due(game, now=self.clock()):
            return False
        await session.commit()
        return True

    async def _announce_end(self, game: SoloGame) -> None:
        """Tell the player's connections and the settled-event listeners."""
        await self.publish(game.player_id, over_frame(game))
        self._settle(game)

    def _settle(self, game: SoloGame) -> None:
        assert game.ended_at is not None
        self.events.publish(Settled(game.kind, game.id, (game.player_id,),  # type: ignore[arg-type]
                                    game.ended_at))

    # ------------------------------------------------------------------ live play

    def _entry(self, game_id: int) -> _Live:
        live = self._live.get(game_id)
        if live is None:
            live = self._live[game_id] = _Live()
            while len(self._live) > CACHED_GAMES:
                oldest, entry = next(iter(self._live.items()))
                if entry.lock.locked():
                    break
                del self._live[oldest]
        else:
            self._live.move_to_end(game_id)
        return live

    async def _position(self, session: AsyncSession, game: SoloGame, live: _Live
                        ) -> GameState:
        if live.state is None or live.state.actions != game.actions_count:
            live.state = await games.rebuild(session=session, game=game)
            live.last_ack = live.last_assist = live.finish_line = None
        return live.state

    async def open(self, *, player_id: int, game_id: int) -> list[Payload]:
        """My game's snapshot; the first open starts its clock."""
        live = self._entry(game_id)
        async with live.lock, self._sessions() as session:
            game = await games.owned_game(session=session, game_id=game_id,
                                          player_id=player_id, lock=True)
            expired = await self._expire(session, game)
            if game.started_at is None and game.status == "playing":
                game.started_at = self.clock()
                await session.commit()
            state = await self._position(session, game, live)
            offered = await self._offer_finish(live, state, game)
            frames = [self._snapshot(game, state, offered)]
        if expired:
            frames.append(over_frame(game))
            self._settle(game)
        return frames

    async def snapshots(self, *, player_id: int) -> list[Payload]:
        """Snapshots of my opened games in progress (a fresh connection's resync)."""
        async with self._sessions() as session:
            ids = await games.opened_in_progress(session=session, player_id=player_id)
        frames: list[Payload] = []
        for game_id in ids:
            frames.extend(f for f in await self.open(player_id=player_id, game_id=game_id)
                          if f["type"] == "solo_snapshot" and f["status"] == "playing")
        return frames

    async def act(self, *, player_id: int, game_id: int, seq: int, action: Payload
                  ) -> list[Payload]:
        live = self._entry(game_id)
        async with live.lock, self._sessions() as session:
            game = await games.owned_game(session=session, game_id=game_id,
                                          player_id=player_id, lock=True)
            if await self._expire(session, game):
                state = await self._position(session, game, live)
                self._settle(game)
                return [self._reject(game, state, seq, "game_over", "the daily's window has "
                                     "closed: the game expired"), over_frame(game)]
            state = await self._position(session, game, live)
            refused = self._refuse(game, state, seq, live.last_ack)
            if refused is not None:
                return [refused]
            try:
                parsed = action_from_json(action)
                after, events = apply(state, parsed)
            except (ActionFormatError, IllegalAction) as error:
                code = error.code if isinstance(error, IllegalAction) else "bad_action"
                return [self._reject(game, state, seq, code, str(error))]
            now = self.clock()
            games.append_action(session=session, game=game, seq=seq, action=parsed,
                                by="player", at=now, after=after)
            if after.won:
                await self._won(session, game, now)
            await session.commit()
            live.state = after
            offered = await self._offer_finish(live, after, game)
            ack = {
                "type": "solo_ack", "game_id": game.id, "seq": seq,
                "view": game_view(after), "score": game.score,
                "delta": game.score - games.start_score_of(state), "events": events_json(events),
                "status": game.status, "elapsed_ms": self._elapsed(game),
                "auto_complete": offered, "duplicate": False,
            }
            live.last_ack = (seq, ack)
        return self._with_end(game, [ack])

    def _with_end(self, game: SoloGame, frames: list[Payload]) -> list[Payload]:
        if game.status != "playing":
            frames.append(over_frame(game))
            self._settle(game)
        return frames

    def _refuse(self, game: SoloGame, state: GameState, seq: int,
                last: tuple[int, Payload] | None) -> Payload | None:
        """The answer to a step that is not applied: duplicate, over, unopened, bad seq."""
        if last is not None and seq == last[0]:
            return {**last[1], "duplicate": True}
        if game.status != "playing":
            return self._reject(game, state, seq, "game_over", f"the game is over ({game.status})")
        if game.started_at is None:
            return self._reject(game, state, seq, "not_opened", "open the game before playing")
        next_seq = state.actions + 1
        if seq < next_seq:
            return self._reject(game, state, seq, "stale_seq",
                                f"seq {seq} is older than the last applied ({next_seq - 1})")
        if seq > next_seq:
            return self._reject(game, state, seq, "bad_seq", f"the next seq is {next_seq}")
        return None

    async def hint(self, *, player_id: int, game_id: int) -> Payload:
        """A hint from what the player sees; counted once per answer."""
        live = self._entry(game_id)
        async with live.lock, self._sessions() as session:
            game = await games.owned_game(session=session, game_id=game_id,
                                          player_id=player_id, lock=True)
            if game.status != "playing":
                raise GameOver(f"the game is over ({game.status})")
            state = await self._position(session, game, live)
            advice = await asyncio.to_thread(visible_hint, state)
            game.hints += 1
            await session.commit()
        return {"type": "solo_hint", "game_id": game_id,
                "action": None if advice.action is None else advice.action.to_json(),
                "reason": advice.reason}

    async def rescue(self, *, player_id: int, game_id: int, seq: int) -> list[Payload]:
        """Up to 5 actions of a verified win played for the player, or advice to undo."""
        live = self._entry(game_id)
        async with live.lock, self._sessions() as session:
            game = await games.owned_game(session=session, game_id=game_id,
                                          player_id=player_id, lock=True)
            state = await self._position(session, game, live)
            refused = self._refuse(game, state, seq, live.last_assist)
            if refused is not None:
                return [refused]
            found = await asyncio.to_thread(rescue_actions, state, nodes=RESCUE_NODES,
                                            seconds=self._rescue_seconds)
            steps: list[Payload] = []
            if found.status == "way_out":
                state = self._play_for(session, game, state, found.actions, seq, "rescue", steps)
                game.rescues += 1
                if state.won:
                    await self._won(session, game, self.clock())
                await session.commit()
                live.state = state
            answer = await self._assist(live, game, state, kind="rescue", verdict=found.status,
                                        message=found.message, steps=steps, seq=seq,
                                        cost=rescue_cost(games.options_of(game)) if steps else 0)
        return self._with_end(game, [answer])

    async def auto_complete(self, *, player_id: int, game_id: int, seq: int
                            ) -> list[Payload]:
        """Play the rest of a game the server offered to finish."""
        live = self._entry(game_id)
        async with live.lock, self._sessions() as session:
            game = await games.owned_game(session=session, game_id=game_id,
                                          player_id=player_id, lock=True)
            state = await self._position(session, game, live)
            refused = self._refuse(game, state, seq, live.last_assist)
            if refused is not None:
                return [refused]
            if not await self._offer_finish(live, state, game) or live.finish_line is None:
                return [self._reject(game, state, seq, "auto_complete_unavailable",
                                     "auto-complete needs an empty stock, every card face up "
                                     "and a proved win")]
            steps: list[Payload] = []
            state = self._play_for(session, game, state, live.finish_line[1], seq,
                                   "auto_complete", steps)
            game.auto_completed = True
            if state.won:
                await self._won(session, game, self.clock())
            await session.commit()
            live.state = state
            answer = await self._assist(live, game, state, kind="auto_complete", verdict="ready",
                                        message=f"{len(steps)} actions to win", steps=steps,
                                        seq=seq, cost=0)
        return self._with_end(game, [answer])

    def _play_for(self, session: AsyncSession, game: SoloGame, state: GameState,
                  actions: tuple[Action, ...], seq: int, by: str, steps: list[Payload]
                  ) -> GameState:
        now = self.clock()
        for offset, action in enumerate(actions):
            state, events = apply(state, action)
            games.append_action(session=session, game=game, seq=seq + offset, action=action,
                                by=by, at=now, after=state)
            steps.append({"seq": seq + offset, "action": action.to_json(), "by": by,
                          "events": events_json(events)})
            if state.won:
                break
        return state

    async def _assist(self, live: _Live, game: SoloGame, state: GameState, *,
                      kind: str, verdict: str, message: str, steps: list[Payload], seq: int,
                      cost: int) -> Payload:
        offered = await self._offer_finish(live, state, game)
        answer = {
            "type": "solo_assist", "game_id": game.id, "kind": kind, "verdict": verdict,
            "message": message, "steps": steps, "view": game_view(state),
            "score": game.score, "seq": state.actions, "status": game.status,
            "elapsed_ms": self._elapsed(game), "rescues": game.rescues, "points_cost": cost,
            "auto_complete": offered, "duplicate": False,
        }
        if steps:
            live.last_assist = (seq, answer)
            live.last_ack = None
        return answer

    async def _offer_finish(self, live: _Live, state: GameState, game: SoloGame) -> bool:
        """Whether to offer auto-complete here (solved once per position, then kept)."""
        if game.status != "playing" or not auto_complete_available(state):
            return False
        if live.finish_line is not None and live.finish_line[0] == state.actions:
            return True
        found = await asyncio.to_thread(auto_complete, state, seconds=self._auto_seconds)
        live.finish_line = (state.actions, found.actions) if found.ready else None
        return found.ready

    # ------------------------------------------------------------------ frames

    def _elapsed(self, game: SoloGame) -> int:
        if game.elapsed_ms is not None:
            return game.elapsed_ms
        if game.started_at is None:
            return 0
        return max(0, round((self.clock() - game.started_at).total_seconds() * 1000))

    def _snapshot(self, game: SoloGame, state: GameState, offered: bool) -> Payload:
        hidden = game.kind == "daily" and game.status == "playing"
        return {
            "type": "solo_snapshot", "game_id": game.id, "kind": game.kind,
            "number": None if hidden else game.number,
            "daily_date": None if game.daily_date is None else game.daily_date.isoformat(),
            "options": games.options_of(game).to_json(), "rules": state.rules.to_json(),
            "difficulty": game.difficulty, "view": game_view(state), "score": game.score,
            "seq": state.actions, "status": game.status, "elapsed_ms": self._elapsed(game),
            "hints": game.hints, "rescues": game.rescues, "auto_complete": offered,
            "points": game.points,
        }

    def _reject(self, game: SoloGame, state: GameState, seq: int, code: str,
                message: str) -> Payload:
        return {
            "type": "solo_reject", "game_id": game.id, "seq": seq, "code": code,
            "message": message, "view": game_view(state), "score": game.score,
            "next_seq": state.actions + 1, "status": game.status,
        }

    def today(self) -> date:
        return utc_day(self.clock())
