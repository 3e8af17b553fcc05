"""A seat as the replay of its log (in the style of a game as a fold of moves over a start).

``replay_log`` is the position a log leads to, for every log (a duel's game, a solo or
daily game: app/services/deals.py, solo_games.py); ``actions_of`` its actions in order.

``rebuild_seat`` replays a stored game over the deal (a match loaded, a copy rebuilt);
``follow_logged`` applies one more logged action to a copy (another process logged it:
app/rooms/peers.py), giving the same seat a rebuild would. Both rebuild the last action's
ack as it was sent, marked :class:`RebuiltAck`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from app.engine.actions import Action, ActionFormatError, action_from_json
from app.engine.errors import IllegalAction
from app.engine.events import Event
from app.engine.game import replay
from app.engine.state import GameState
from app.rooms import frames
from app.rooms.frames import RebuiltAck
from app.rooms.match import SeatState
from app.rooms.store import StoredAction, StoredGame
from app.scoring.play import ScoredGame

__all__ = ["LogEntry", "RebuiltAck", "actions_of", "follow_logged", "rebuild_seat",
           "replay_log"]

Payload = dict[str, Any]


class LogEntry(Protocol):
    """One logged action as every log holds it: its seq and its rule-book JSON (a duel's
    ``GameAction`` or a solo game's ``SoloAction`` row, a :class:`StoredAction`)."""

    @property
    def seq(self) -> int: ...

    @property
    def action(self) -> Payload: ...


def _seq(entry: LogEntry) -> int:
    return entry.seq


def actions_of(entries: Iterable[LogEntry]) -> tuple[Action, ...]:
    """The logged actions in seq order."""
    return tuple(action_from_json(entry.action) for entry in sorted(entries, key=_seq))


def replay_log(start: GameState, entries: Iterable[LogEntry]) -> GameState:
    """The position the log leads to from ``start`` (the rule book's replay)."""
    return replay(start, actions_of(entries))


def rebuild_seat(stored: StoredGame, start: GameState, limit: float, *,
                 match_id: int | None = None) -> SeatState:
    """Replay the game's log over the deal; the stored end (finish, time-out) is
    authoritative. ``match_id``: the last logged action's ack rebuilt too, as it was sent."""
    game = ScoredGame.start(start)
    actions: list[Payload] = []
    seq = 0
    ended_at: float | None = None
    end_reason: str | None = None
    last: tuple[StoredAction, ScoredGame, tuple[Event, ...]] | None = None
    for entry in sorted(stored.actions, key=_seq):
        action = action_from_json(entry.action)
        before = game
        game, events = game.play(action)
        last = (entry, before, events)
        actions.append(action.to_json())
        seq = entry.seq
        if game.state.won and ended_at is None:
            ended_at, end_reason = entry.at, "won"
    if stored.ended_at is not None:
        ended_at, end_reason = stored.ended_at, stored.end_reason
    seat = SeatState(stored.game_id, stored.player_id, limit, game, seq, actions, len(actions),
                stored.started_at, ended_at, end_reason, name=stored.name)
    if match_id is not None and last is not None:
        seat.last_ack = _logged_ack(match_id, seat, *last)
    return seat


def follow_logged(seat: SeatState, entry: StoredAction, *, match_id: int
                  ) -> SeatState | None:
    """The seat once ``entry``, logged by another process, is applied to this copy, as
    :func:`rebuild_seat` would have it; None when the entry does not simply follow on
    (a gap, a game over or not opened here, a win, an action this copy finds illegal):
    then only a rebuild from the log is right."""
    if (entry.seq != seat.seq + 1 or seat.log_length != seat.seq or seat.over
            or seat.started_at is None):
        return None
    try:
        action = action_from_json(entry.action)
        game, events = seat.game.play(action)
    except (ActionFormatError, IllegalAction):
        return None
    if game.state.won:  # the game ends: the rebuild takes its end from the log
        return None
    followed = seat.played(game, entry.seq, action.to_json())
    followed.last_ack = _logged_ack(match_id, followed, entry, seat.game, events)
    return followed


def follow_opened(seat: SeatState, at: float) -> SeatState | None:
    """The seat once another process opened its game at ``at``, as :func:`rebuild_seat`
    would have it (the log has nothing of the game yet); None when only a rebuild is
    right (opened already, or a game that ended or holds actions without a start: news
    missed)."""
    if seat.started_at is not None or seat.over or seat.seq or seat.log_length:
        return None
    return seat.evolve(started_at=at)


def _logged_ack(match_id: int, seat: SeatState, entry: StoredAction, before: ScoredGame,
                events: tuple[Event, ...]) -> RebuiltAck:
    won = seat.game.state.won  # the ack as sent: the seat as it was then, and its clock
    then = seat.evolve(ended_at=entry.at if won else None, end_reason="won" if won else None)
    delta = seat.game.score.points - before.score.points
    return frames.rebuilt_ack(match_id, then, entry.seq, delta, frames.events_json(events),
                              entry.at)
