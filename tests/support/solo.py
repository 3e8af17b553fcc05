"""Solo play in tests: a SoloPlay on a test database with a clock the test moves."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player
from app.engine.actions import Action
from app.engine.solver.solvable import solvable_deal
from app.rewards.solo import SoloOptions, SoloStart, solo_start
from app.services.solo_play import SoloPlay

T0 = datetime(2026, 3, 10, 18, 0, tzinfo=UTC)


@dataclass
class FakeClock:
    now: datetime = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass
class Outside:
    """Frames SoloPlay published for a player's other connections."""

    frames: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    async def __call__(self, player_id: int, frame: dict[str, Any]) -> None:
        self.frames.append((player_id, frame))


def make_play(sessions: async_sessionmaker[AsyncSession], clock: FakeClock,
              outside: Outside | None = None) -> SoloPlay:
    return SoloPlay(sessions=sessions, clock=clock,
                    publish=outside or Outside(), rescue_seconds=None,
                    auto_complete_seconds=None)


async def add_player(sessions: async_sessionmaker[AsyncSession], name: str) -> int:
    async with sessions() as session:
        player = Player(name=name, name_key=name.lower())
        session.add(player)
        await session.commit()
        return player.id


def one_suit(number: int = 1) -> tuple[SoloStart, tuple[Action, ...]]:
    """A solvable 1-suit solo start and its verified winning line."""
    return solo_start(number, SoloOptions(1)), solvable_deal(number, 1).solution


def act_frame(game_id: int, seq: int, action: Action) -> dict[str, Any]:
    return {"type": "solo_action", "game_id": game_id, "seq": seq, "action": action.to_json()}


async def opened_game(sessions: async_sessionmaker[AsyncSession], number: int,
                      suits: int = 1, *, name: str = "Ann"
                      ) -> tuple[SoloPlay, int, int, SoloStart]:
    """A new player's solo game on deal ``number``, created and opened: the service, the
    player, the game and its start."""
    play = make_play(sessions, FakeClock())
    player = await add_player(sessions, name)
    start = solo_start(number, SoloOptions(suits))
    game_id = (await play.create(player_id=player, start=start)).game.id
    await play.open(player_id=player, game_id=game_id)
    return play, player, game_id, start
