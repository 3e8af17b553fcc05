"""A solo or daily game as a one-seat match on the duel core, and its steps stored.

Every action of a solo or daily game, the player's own and those an assist plays for
them (a rescue, the auto-complete, an undo to the last winnable position), is judged,
applied, scored and answered by ``app/rooms/duel_core.act``, the step of a duel's
action, on a match of one seat in ``SOLO_MODE`` (``app/rooms/modes.py``). What is left
here is the storage side: the match rebuilt from the game's row and log (the fold of
``app/rooms/seat_log.rebuild_seat``, a duel's too), and a step's writes made in the
game's transaction (the log and the row's counters, ``solo_store.append_action``).

Opening a game (its clock starts) and abandoning it are steps of the core too
(``open_seat``, ``end``), stored the same way. The daily's window closes on the row
(``solo_store.expire_if_due``: a reader may find it closed with no match at hand), so the
row stays the authority on the game's end: :func:`in_step` brings a cached match's seat
into line with it before each command.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.solo_models import SoloAction, SoloGame
from app.engine.actions import action_from_json
from app.rooms.duel_core import AppendAction, StartGame, Step
from app.rooms.match import MatchState, SeatState
from app.rooms.modes import SOLO_MODE, UNTIMED
from app.rooms.seat_log import rebuild_seat
from app.rooms.store import StoredAction, StoredGame
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


def write_step(session: AsyncSession, game: SoloGame, step: Step, *, by: str,
               at: datetime) -> str | None:
    """Make ``step``'s writes in the game's transaction (not committed): its actions
    logged (``by`` whom), its clock started; returns how the step ended the game, if it
    did (the caller ends it: a win's points, then the settled event's listeners)."""
    ended: str | None = None
    for write in step.writes:
        if isinstance(write, AppendAction):
            games.append_action(session=session, game=game, seq=write.seq,
                                action=action_from_json(write.action), by=by, at=at,
                                after=seat_of(step.match).game.state)
        elif isinstance(write, StartGame):
            game.started_at = at
        else:
            ended = write.reason
    return ended
