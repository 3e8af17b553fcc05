"""A solo or daily game as a one-seat match on the duel core, and its steps stored.

Every action of a solo or daily game, the player's own and those an assist plays for
them (a rescue, the auto-complete, an undo to the last winnable position), is judged,
applied, scored and answered by ``app/rooms/duel_core.act``, the step of a duel's
action, on a match of one seat in ``SOLO_MODE`` (``app/rooms/modes.py``). What is left
here is the storage side: the match rebuilt from the game's row and log (the fold of
``app/rooms/seat_log.rebuild_seat``, a duel's too), and the store port on the game's row
(:class:`SoloRowStore`: the log and the row's counters, in the game's transaction).

Opening a game (its clock starts) and abandoning it are steps of the core too
(``open_seat``, ``end``), stored the same way: through the port every mode's steps go
through (``app/rooms/step_writes.py``), here :class:`SoloRowStore`. The daily's window
closes on the row (``solo_store.expire_if_due``: a reader may find it closed with no
match at hand), so the row stays the authority on the game's end: :func:`in_step`
brings a cached match's seat into line with it before each command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.solo_models import SoloAction, SoloGame
from app.rooms.match import MatchState, SeatState
from app.rooms.modes import SOLO_MODE, UNTIMED
from app.rooms.seat_log import rebuild_seat
from app.rooms.store import StoredAction, StoredGame, StoreError, Totals
from app.services import solo_store as games


def seconds(at: datetime | None) -> float | None:
    """A moment as the core counts time (seconds since the epoch); a naive one is UTC
    (SQLite gives datetimes back without their zone)."""
    if at is None:
        return None
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def seat_match(game: SoloGame, log: Sequence[SoloAction]) -> MatchState:
    """The game as a one-seat match: its start, its log replayed, its row's end."""
    start = games.start_state(game)
    stored = StoredGame(
        game.id, game.player_id, seconds(game.started_at),
        seconds(game.ended_at) if game.status != "playing" else None,
        None if game.status == "playing" else game.status,
        [StoredAction(entry.seq, entry.action, seconds(entry.at) or 0.0) for entry in log])
    seat = rebuild_seat(stored, start, UNTIMED)
    return MatchState(game.id, start.rules, {"number": game.source_deal}, start, (seat,),
                      mode=SOLO_MODE)


def seat_of(match: MatchState) -> SeatState:
    return match.seats[0]


def in_step(match: MatchState, game: SoloGame) -> MatchState | None:
    """``match`` with its seat opened and ended as the row says now; None when the row's
    log moved on (another process, a restart): only a rebuild will do. The seat's cached
    answer stays: a resend of the last seq is answered again even once the game ended."""
    seat = seat_of(match)
    if seat.seq != game.actions_count:
        return None
    reason = None if game.status == "playing" else game.status
    if (seat.started_at is not None) == (game.started_at is not None) and (
            seat.end_reason == reason):
        return match
    ended = seconds(game.ended_at) if reason is not None else None
    return match.with_seat(seat.evolve(started_at=seconds(game.started_at), ended_at=ended,
                                       end_reason=reason))


def moment(at: float) -> datetime:
    """A time of the core (seconds since the epoch) as the row keeps it."""
    return datetime.fromtimestamp(at, UTC)


class SoloRowStore:
    """The step port (``app/rooms/store.StepStore``) on one solo or daily game's row,
    in the transaction of ``session``: its actions logged (played ``by`` the player or an
    assist), its counters and clock kept on the row, its end marked (a win's points).

    Nothing is committed here: the game's command commits once its steps are written
    (``SoloGames._commit``), with the listeners of an end (badges, a daily's streak) in
    the same transaction, before anything is answered or adopted. So "durable" is the
    commit's, and ``then`` is called as the write joins the transaction (solo play
    passes none: it adopts after the commit)."""

    __slots__ = ("by", "game", "session")

    def __init__(self, session: AsyncSession, game: SoloGame, *, by: str) -> None:
        self.session, self.game, self.by = session, game, by

    def _own(self, game_id: int) -> SoloGame:
        if game_id != self.game.id:
            raise StoreError(f"game {game_id} is not this store's game ({self.game.id})")
        return self.game

    async def start_game(self, game_id: int, at: float) -> None:
        game = self._own(game_id)
        if game.started_at is None:
            game.started_at = moment(at)

    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], at: float, progress: Totals,
        *, then: Callable[[], None] | None = None,
    ) -> None:
        games.append_action(session=self.session, game=self._own(game_id), seq=seq,
                            action=action, by=self.by, at=moment(at), totals=progress)
        if then is not None:
            then()

    async def end_game(self, game_id: int, reason: str, at: float, progress: Totals) -> None:
        game = self._own(game_id)
        if game.status == "playing":  # an end already recorded stays
            games.end_game(game, status=reason, at=moment(at))
