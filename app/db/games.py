"""Repository for matches, games and the append-only action log.

These are the functions the live duel layer builds on: create a match, open a game,
append an action (refused on a duplicate sequence number), load a game with its log,
finish a game. None of them commits: the caller owns the transaction.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GAME_STATUSES, DuelTable, Game, GameAction, Match, utcnow
from app.rooms.store import Totals


class DuplicateActionError(ValueError):
    """An action with this sequence number is already in the game's log."""

    def __init__(self, game_id: int, seq: int) -> None:
        super().__init__(f"game {game_id} already has action number {seq}")
        self.game_id = game_id
        self.seq = seq


class GameStatusError(ValueError):
    """A game status that the schema does not know, or a finish of a finished game."""


@dataclass(frozen=True)
class DealChoice:
    """The deal of a match: a generator deal number, or a stored layout, or both."""

    deal_number: int | None
    generator_version: int | None
    layout: dict[str, Any] | None = None
    difficulty: str | None = None
    play_number: int | None = None
    """The number a solo game deals the same cards from (``app.rewards.solo``): a duel
    number, 1,000,000 to 2**48 − 1 (a daily duel: the daily deal's, 1–999,999)."""
    play_solvable_only: bool = False
    """With "solvable only" on (the number's solvable deal) or off (its generator deal)."""


@dataclass(frozen=True)
class LoadedGame:
    game: Game
    match: Match
    actions: tuple[GameAction, ...]


async def create_match(
    session: AsyncSession, *, table: DuelTable, player_ids: Sequence[int], choice: DealChoice
) -> Match:
    """A new match at ``table`` with one game per player (seat = position in ``player_ids``)."""
    last = await session.scalar(
        select(func.max(Match.ordinal)).where(Match.table_id == table.id)
    )
    match = Match(
        table_id=table.id,
        ordinal=(last or 0) + 1,
        preset=table.preset,
        suits=table.suits,
        time_limit_seconds=table.time_limit_seconds,
        rated=table.rated,
        deal_number=choice.deal_number,
        generator_version=choice.generator_version,
        layout=choice.layout,
        difficulty=choice.difficulty,
        play_number=choice.play_number,
        play_solvable_only=None if choice.play_number is None else choice.play_solvable_only,
        status="playing",
    )
    session.add(match)
    await session.flush()
    for seat, player_id in enumerate(player_ids):
        session.add(Game(match_id=match.id, player_id=player_id, seat=seat, status="playing"))
    await session.flush()
    return match


async def current_match(session: AsyncSession, *, table_id: int) -> Match | None:
    """The latest match of a table (playing or not), or None before the first."""
    return await session.scalar(
        select(Match).where(Match.table_id == table_id).order_by(Match.ordinal.desc()).limit(1)
    )


async def games_of_match(session: AsyncSession, *, match_id: int) -> list[Game]:
    result = await session.scalars(
        select(Game).where(Game.match_id == match_id).order_by(Game.seat)
    )
    return list(result)


async def game_for_player(session: AsyncSession, *, match_id: int, player_id: int) -> Game | None:
    return await session.scalar(
        select(Game).where(Game.match_id == match_id, Game.player_id == player_id)
    )


async def start_game(session: AsyncSession, *, game: Game, at: datetime | None = None) -> Game:
    """Mark the moment the player opened their game (the clock starts); idempotent."""
    if game.started_at is None:
        game.started_at = at or utcnow()
        await session.flush()
    return game


async def append_action(
    session: AsyncSession,
    *,
    game_id: int,
    seq: int,
    action: dict[str, Any],
    at: datetime | None = None,
    progress: Totals | None = None,
) -> GameAction:
    """Append one legal action; raises :class:`DuplicateActionError` if ``seq`` is taken.

    ``progress``: the game's totals after it, kept on the row (what :func:`live_totals`
    reads while the game is played). Uses a savepoint so a duplicate leaves the caller's
    transaction usable.
    """
    row = GameAction(game_id=game_id, seq=seq, action=action, at=at or utcnow())
    if progress is not None:
        row.score, row.actions_count = progress.score, progress.actions
        row.time_used_ms = progress.time_used_ms
    try:
        async with session.begin_nested():
            session.add(row)
    except IntegrityError:
        raise DuplicateActionError(game_id, seq) from None
    return row


async def actions_of_game(session: AsyncSession, *, game_id: int) -> tuple[GameAction, ...]:
    result = await session.scalars(
        select(GameAction).where(GameAction.game_id == game_id).order_by(GameAction.seq)
    )
    return tuple(result)


async def actions_of_games(session: AsyncSession, *, game_ids: list[int]
                           ) -> dict[int, list[GameAction]]:
    """Each game's logged actions in seq order, the games' all in one round trip."""
    logged: dict[int, list[GameAction]] = {game_id: [] for game_id in game_ids}
    if game_ids:
        for action in await session.scalars(
                select(GameAction).where(GameAction.game_id.in_(game_ids))
                .order_by(GameAction.game_id, GameAction.seq)):
            logged[action.game_id].append(action)
    return logged


async def game_head(session: AsyncSession, *, game_id: int) -> tuple[int, bool] | None:
    """The game's last logged seq (0 for none) and whether its end is recorded; None when
    there is no such game. One round trip."""
    last = (select(func.coalesce(func.max(GameAction.seq), 0))
            .where(GameAction.game_id == game_id).scalar_subquery())
    row = (await session.execute(select(Game.status, last).where(Game.id == game_id))).first()
    return None if row is None else (int(row[1]), row[0] != "playing")


async def load_game(session: AsyncSession, *, game_id: int) -> LoadedGame | None:
    """A game, its match and its whole action log in order, or None."""
    game = await session.get(Game, game_id)
    if game is None:
        return None
    match = await session.get(Match, game.match_id)
    assert match is not None  # foreign key
    return LoadedGame(game, match, await actions_of_game(session, game_id=game_id))


async def live_totals(session: AsyncSession, game: Game) -> Totals:
    """The game's totals now: while it is played, those of its last logged action (the
    action log's writers leave the games row alone, revision 0009); once it has ended,
    or before its first action with totals (none logged yet, or logged before 0009), the
    games row's."""
    if game.status == "playing":
        last = (await session.execute(
            select(GameAction.score, GameAction.actions_count, GameAction.time_used_ms)
            .where(GameAction.game_id == game.id).order_by(GameAction.seq.desc()).limit(1)
        )).first()
        if last is not None:
            score, actions, time_used_ms = last
            if score is not None and actions is not None and time_used_ms is not None:
                return Totals(score, actions, time_used_ms)
    return Totals(game.score, game.actions_count, game.time_used_ms)


async def update_progress(session: AsyncSession, *, game: Game, progress: Totals) -> Game:
    game.score = progress.score
    game.actions_count = progress.actions
    game.time_used_ms = progress.time_used_ms
    await session.flush()
    return game


async def finish_game(session: AsyncSession, *, game: Game, status: str, progress: Totals,
                      at: datetime | None = None) -> Game:
    """End a game with how it ended (won / finished / timed_out) and its totals."""
    if status not in GAME_STATUSES or status == "playing":
        raise GameStatusError(f"a game ends as won, finished or timed_out, not {status!r}")
    if game.status != "playing":
        raise GameStatusError(f"game {game.id} has already ended ({game.status})")
    game.status = status
    game.ended_at = at or utcnow()
    return await update_progress(session, game=game, progress=progress)
