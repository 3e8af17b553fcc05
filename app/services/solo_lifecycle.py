"""Solo and daily games' lifecycle: start, the daily's one attempt, abandon, expiry, ends.

``SoloGames`` also keeps, per game, the lock and the cached position that live play
(``app.services.solo_play``) works under, and builds the frames both send. An end is
told to the player's connections (``solo_over``) and to the settled event.
"""


from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.solo_models import SoloGame
from app.engine.actions import Action
from app.engine.daily import utc_day
from app.engine.state import GameState
from app.rewards.assist import auto_complete_available
from app.rewards.solo import SoloStart, daily_game
from app.rooms import duel_core as core
from app.rooms.duel_core import Step
from app.rooms.match import MatchState
from app.rooms.seat_rule import Answered
from app.rooms.step_writes import write_step
from app.runtime.solver_worker import off_loop
from app.services import (
    solo_frames,
    subscribers,  # noqa: F401  (every listener subscribed before a publish)
)
from app.services import solo_store as games
from app.services.daily import DailyAlreadyPlayed
from app.services.settled import SoloSettled, solo_settled, take_notifications
from app.services.solo_seat import SoloRowStore, in_step, seat_match, seat_of, seconds
from app.services.solo_store import SoloGameOver
from app.wire.base import Numbered
from app.wire.duel import Ack
from app.wire.solo import SoloReject, SoloStep

Payload = dict[str, Any]
Publish = Callable[[int, Numbered], Awaitable[None]]
Clock = Callable[[], datetime]
CACHED_GAMES = 10_000
Position = tuple[object, ...]
"""Every card where it lies (columns, stock, runs removed): what a winning line needs."""


def position_of(state: GameState) -> Position:
    return (state.columns, state.stock, state.removed)


def utcnow() -> datetime:
    return datetime.now(UTC)


async def _nowhere(player_id: int, frame: Numbered) -> None:
    """No live layer (REST-only apps, tests): frames for other connections are dropped."""


@dataclass
class LiveGame:
    """What this process keeps of one game between two of its steps."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The game as a one-seat match (app/services/solo_seat.py); its seat's ``last_ack``
    # is the duplicate-answer cache of the player's actions (app/rooms/seat_rule.py).
    match: MatchState | None = None
    # The cache of the last assistance that played steps: the seq asked and its answer.
    last_assist: Answered | None = None
    finish_line: tuple[int, tuple[Action, ...]] | None = None  # (at seq, actions)
    # Where the last rescue stopped and the rest of its winning line: a player who
    # presses Rescue again from there gets the next actions without a new search.
    way_out: tuple[Position, tuple[Action, ...]] | None = None

    def forget_answers(self) -> None:
        """Steps were played for the player (an assist): no action's answer is repeated."""
        if self.match is not None:
            self.match = self.match.with_seat(seat_of(self.match).evolve(last_ack=None))


@dataclass(frozen=True, slots=True)
class Created:
    game: SoloGame
    abandoned_game_id: int | None



class SoloGames:
    def __init__(
        self, *, sessions: async_sessionmaker[AsyncSession], publish: Publish = _nowhere,
        clock: Clock = utcnow,
        rescue_seconds: float | None = 2.5, auto_complete_seconds: float | None = 2.0,
    ) -> None:
        self._sessions = sessions
        self.publish = publish
        self.clock = clock
        self._rescue_seconds = rescue_seconds
        self._auto_seconds = auto_complete_seconds
        self._live: OrderedDict[int, LiveGame] = OrderedDict()

    # ------------------------------------------------------------------ starting, ending

    async def create(self, *, player_id: int, start: SoloStart) -> Created:
        """A new solo game; my solo game in progress (if any) is abandoned."""
        now = self.clock()
        async with self._sessions() as session:
            old = await games.abandon_playing_solo(session=session, player_id=player_id, now=now)
            game = games.new_game(player_id=player_id, start=start, kind="solo", day=None,
                                  now=now)
            session.add(game)
            notes = await self._commit(session, old)
        if old is not None:
            await self._announce_end(old, notes)
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
        """End my game in progress as abandoned (a step of the core, ``end``)."""
        async with self._owned(player_id=player_id, game_id=game_id) as (live, session, game):
            if game.status != "playing" or games.expire_if_due(game, now=self.clock()):
                raise SoloGameOver(f"the game is over ({game.status})")
            match = await self._match(session, game, live)
            step = core.end(match, player_id, "abandoned", self._seconds())
            notes = await self._store(session, game, (step,), by="player")
            live.match = step.match
        await self._announce_end(game, notes)
        return game

    async def refreshed(self, *, session: AsyncSession, game: SoloGame
                        ) -> SoloGame:
        """``game`` as a reader sees it: a daily past its window ends now as ``expired``."""
        if game.kind == "daily" and game.status == "playing":
            live = self._entry(game.id)
            async with live.lock:
                await session.refresh(game)
                if games.expire_if_due(game, now=self.clock()):
                    await self._announce_end(game, await self._commit(session, game))
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
        start = await off_loop(daily_game, day)  # the solver, once a day
        try:
            return await self.create_daily(player_id=player_id, day=day, start=start), True
        except IntegrityError:  # a second start raced this one: the first one counts
            return (await self.start_daily(player_id=player_id))[0], False

    async def _commit(self, session: AsyncSession, game: SoloGame | None) -> list[Numbered]:
        """Commit; when ``game`` just ended, through ``solo_settled`` (its listeners run in
        this transaction). Returns the frames they left for the player (badges)."""
        if game is None or game.status == "playing" or game.ended_at is None:
            await session.commit()
            return []
        await session.flush()
        await solo_settled.publish(SoloSettled(game.id, game.kind, game.player_id,
                                               game.status, game.ended_at), session=session)
        return [frame for _, frame in take_notifications(session)]

    async def _announce_end(self, game: SoloGame, notes: list[Numbered]) -> None:
        """An end not answered on the WebSocket (REST, a new game): to the player's
        connections, ``solo_over`` then what the listeners left (badges)."""
        for frame in (solo_frames.over(game), *notes):
            await self.publish(game.player_id, frame)

    # ------------------------------------------------------------------ live play

    @asynccontextmanager
    async def _owned(self, *, player_id: int, game_id: int
                     ) -> AsyncIterator[tuple[LiveGame, AsyncSession, SoloGame]]:
        """The player's game for one command: locked in this process and in the database."""
        live = self._entry(game_id)
        async with live.lock, self._sessions() as session:
            game = await games.owned_game(session=session, game_id=game_id,
                                          player_id=player_id, lock=True)
            yield live, session, game

    def _entry(self, game_id: int) -> LiveGame:
        live = self._live.get(game_id)
        if live is None:
            live = self._live[game_id] = LiveGame()
            while len(self._live) > CACHED_GAMES:
                oldest, entry = next(iter(self._live.items()))
                if entry.lock.locked():
                    break
                del self._live[oldest]
        else:
            self._live.move_to_end(game_id)
        return live

    async def _match(self, session: AsyncSession, game: SoloGame, live: LiveGame
                     ) -> MatchState:
        """The game as a one-seat match, in line with its row (rebuilt from the log when
        the row moved on: another process, a restart)."""
        match = None if live.match is None else in_step(live.match, game)
        if match is None:
            log = await games.logged_actions(session=session, game_id=game.id)
            match = seat_match(game, log)
            live.last_assist = live.finish_line = None
        live.match = match
        return match

    async def _position(self, session: AsyncSession, game: SoloGame, live: LiveGame
                        ) -> GameState:
        return seat_of(await self._match(session, game, live)).game.state

    def _elapsed(self, game: SoloGame) -> int:
        if game.elapsed_ms is not None:
            return game.elapsed_ms
        if game.started_at is None:
            return 0
        return max(0, round((self.clock() - game.started_at).total_seconds() * 1000))

    def _reject(self, game: SoloGame, state: GameState, seq: int, code: str,
                message: str) -> SoloReject:
        return solo_frames.reject(game, state, seq, code, message)

    # ------------------------------------------------------------------ steps

    def _play_for(self, match: MatchState, actions: Sequence[Action], seq: int, by: str,
                  steps: list[SoloStep]) -> list[Step]:
        """``actions`` played for the player from ``seq`` on, each a step of the core as
        the player's own would be (an assist's line, checked again here: the search
        worked on a copy); a rescue stops where the free auto-complete can finish."""
        now = self._seconds()
        player_id = seat_of(match).player_id
        made: list[Step] = []
        for offset, action in enumerate(actions):
            step = core.act(match, player_id, seq + offset, action.to_json(), now)
            if not step.writes or not isinstance(step.reply, Ack):
                raise AssertionError(f"an assist's action was refused: {step.reply!r}")
            made.append(step)
            match = step.match
            steps.append(solo_frames.step(seq + offset, action, by, step.reply.events))
            state = seat_of(match).game.state
            if state.won or (by == "rescue" and auto_complete_available(state)):
                break  # from here the auto-complete, which costs nothing, plays the rest
        return made

    async def _store(self, session: AsyncSession, game: SoloGame, made: Sequence[Step], *,
                     by: str) -> list[Numbered]:
        """Write ``made`` steps through the store port on the game's row (an end among
        them ends the row), commit; the listeners' frames (an end's)."""
        store = SoloRowStore(session, game, by=by)
        for step in made:
            await write_step(store, step)
        return await self._commit(session, game)  # an end's listeners run in it

    def _seconds(self, at: datetime | None = None) -> float:
        """``at`` (by default now) as the core counts time."""
        moment = seconds(self.clock() if at is None else at)
        assert moment is not None
        return moment

    def today(self) -> date:
        return utc_day(self.clock())
