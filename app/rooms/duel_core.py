"""The duel core, pure: what each command does to a match (``app/rooms/match.py``).

Every mode's actions step here: a duel is a match of two seats, a solo or daily game a
match of one (``app/services/solo_seat.py``); where they differ is the match's ``mode``
(``app/rooms/modes.py``: the seq rule, whether "finish" is a command, a clock that ends
the game), read here as data.

In the style of a sans-I/O protocol: every function takes the match, the command and the
time (``now``, read by the caller) and returns a :class:`Step`: the match after the
command, the writes the store must make (the ones marked ``required`` before the step
may be adopted at all), the effects for the runner to carry out afterwards (timers,
fan-out), and the answer to the caller. Nothing here waits, stores, reads a clock or sends
anything; the runner (``app/rooms/duel.py``) does, in the order given.

Sequence numbers: an action's ``seq`` is its position in the game's log (1, 2, …);
"finish" takes the next seq too but ends the game row instead of entering the log (the
log holds rule-book actions only). Whether a seq is taken, answered again or refused is
the one rule of ``app/rooms/seat_rule.py`` (``judge`` with the mode's rule; a duel's,
``DUEL``: the same seq with
another action is ``seq_taken``; the last applied seq is answered again from the log);
every rejection carries the authoritative view for a resync. An illegal action consumes
no seq.
"""

from __future__ import annotations

from typing import Any

import msgspec

from app.engine.actions import ActionFormatError, action_from_json
from app.engine.errors import IllegalAction
from app.engine.state import GameState
from app.rooms import frames, seat_rule
from app.rooms.errors import GameIsOver, NotOpened, ReplayNotReady, SpectateRefused
from app.rooms.frames import RebuiltAck
from app.rooms.match import MatchState, SeatState
from app.rooms.store import Totals
from app.wire import duel as wire
from app.wire.events import Event as StepEvent
from app.wire.solo import SoloAck

Payload = dict[str, Any]
Reply = wire.Ack | wire.Reject | SoloAck
"""The answer to an action: its ack, or its refusal (or a solo game's ack given again:
its seat keeps the answer as solo said it)."""
FINISH_OP = "finish"


# --------------------------------------------------------------------------- steps
# Steps, writes and effects are values by convention, never changed once made, and
# several are made per action on the hottest path: msgspec structs, built in C (a
# dataclass's ``__init__`` is a Python call behind ``type.__call__``, three times the
# instructions) and untracked by the garbage collector (none refers back to a step).


class _Part(msgspec.Struct, gc=False):
    """A step or a part of one (fields compared by ``==``, as a dataclass's)."""


class StartGame(_Part):
    game_id: int
    at: float


class AppendAction(_Part):
    game_id: int
    seq: int
    action: Payload
    at: float
    progress: Totals


class EndGame(_Part):
    """``required``: a finish must be stored or it did not happen; a win or a time-out
    stands even if the write fails (the log and the clock prove it again on a rebuild)."""

    game_id: int
    reason: str
    at: float
    progress: Totals
    required: bool = False


Write = StartGame | AppendAction | EndGame


class Arm(_Part):
    """Start the seat's time-out timer (its deadline is on the seat)."""

    player_id: int


class Disarm(_Part):
    player_id: int


class Acked(_Part):
    """The step's player's game acknowledged with an ack (the seat's ``last_ack``): shown
    to its spectators (the frame built only if one may listen), then as progress to the
    match, then told to other processes (whether the game ended: the seat says). One
    effect for the three, as every acknowledged step does them; with nothing of its own
    to carry, one value (``ACKED``) serves every step."""


class ProgressChanged(_Part):
    """The player's progress changed (a game opened or ended): published to the match,
    then told to other processes (``ended``: the game is over); always both, in order."""

    player_id: int
    ended: bool = False


class GameEnded(_Part):
    """Publish ``frame`` (a game_over) to the match, then settle it if all games are over."""

    frame: wire.GameOver


Effect = Arm | Disarm | Acked | ProgressChanged | GameEnded


ACKED = Acked()
ACKED_ONLY: tuple[Effect, ...] = (ACKED,)  # the effects of an ordinary action's step


class Step(_Part):
    """``base``, when given: the match this step was computed from, which it changes in
    the player's seat only (the runner adopts ``match`` whole while nothing else moved)."""

    match: MatchState
    writes: tuple[Write, ...] = ()
    effects: tuple[Effect, ...] = ()
    reply: Reply | None = None
    base: MatchState | None = None

    def then(self, later: Step) -> Step:
        """This step followed by ``later`` (computed on this step's match)."""
        return Step(later.match, self.writes + later.writes, self.effects + later.effects,
                    later.reply)


# --------------------------------------------------------------------------- building


# A seat rebuilt from its log (a match loaded, another process's action followed):
# app/rooms/seat_log.py.


# --------------------------------------------------------------------------- commands


def end(match: MatchState, player_id: int, reason: str, at: float, *, announce: bool = True
        ) -> Step:
    """End a game (``announce``: tell the match now; otherwise the caller's step does)."""
    seat = match.seat_of(player_id)
    ended = seat.evolve(ended_at=at, end_reason=reason)
    write = EndGame(seat.game_id, reason, at,
                    Totals(seat.game.points, seat.game.state.actions,
                             round(seat.elapsed_if_ended(reason, at) * 1000)),
                    required=reason == "finished")
    effects: tuple[Effect, ...] = (Disarm(player_id),)
    if announce:
        effects += (ProgressChanged(player_id, ended=True),
                    GameEnded(frames.game_over(match.match_id, ended, at)))
    return Step(match.with_seat(ended), (write,), effects)


def deadline_due(match: MatchState, player_id: int, now: float) -> Step | None:
    """The player's clock ran out and nothing has ended the game yet: end it now."""
    seat = match.seat_of(player_id)
    if seat.overdue(now):
        return end(match, player_id, "timed_out", seat.deadline)
    return None


def expired(match: MatchState, seat: SeatState, now: float) -> bool:
    """A game nobody opened by the start deadline (the start window's end, or the
    table's expiry): its player did not start."""
    deadline = match.start_deadline
    return (seat.started_at is None and not seat.over and deadline is not None
            and now >= deadline)


def expiry_due(match: MatchState, player_id: int, now: float) -> Step | None:
    """The game was never opened and its start deadline passed: it ends as a time-out of
    a game never opened, which its status reads as ``did_not_start``."""
    seat = match.seat_of(player_id)
    if expired(match, seat, now):
        return end(match, player_id, "timed_out", match.start_deadline or now)
    return None


def open_seat(match: MatchState, player_id: int, now: float) -> Step | None:
    """Start the player's clock, the first time only (None: nothing to do)."""
    seat = match.seat_of(player_id)
    if seat.started_at is not None or seat.over:
        return None
    opened = seat.evolve(started_at=now)
    return Step(match.with_seat(opened), (StartGame(seat.game_id, now),),
                (Arm(player_id), ProgressChanged(player_id)))


def act(match: MatchState, player_id: int, seq: int, data: Payload, now: float) -> Step:
    """An action (or a finish) with its seq. Past the seat's deadline, the game ends at
    its deadline first (``deadline_due``), and the action is refused."""
    seat = match.seat_of(player_id)
    if seat.overdue(now):
        due = end(match, player_id, "timed_out", seat.deadline)
        return due.then(act(due.match, player_id, seq, data, now))
    last = seat.last_ack
    verdict = seat_rule.judge(
        match.mode.seq_rule, seq, seat.seq, None if last is None else last.seq,
        seat.started_at is not None, None if seat.ended_at is None else seat.status,
        lambda asked: _same_step(seat, asked, data))
    if verdict is not seat_rule.ACCEPT:
        if isinstance(verdict, seat_rule.Refuse):
            return Step(match, reply=reject(match, seat, seq, verdict.code, verdict.message))
        # A resend, also of a finish to a copy rebuilt from the log (the finish takes a
        # seq but is not logged, so the rebuilt seat has no ack of it: the process that
        # applied it died before its ack went out). Answered as that process would.
        return again(match, seat, seq, now)
    if data.get("op") == FINISH_OP and set(data) == {"op"} and match.mode.may_finish:
        ended = end(match, player_id, "finished", now, announce=False)
        return _stepped(ended, player_id, seq, 0, [], now)
    try:
        action = action_from_json(data)
        after, events = seat.game.play(action)
    except (ActionFormatError, IllegalAction) as error:
        code = error.code if isinstance(error, IllegalAction) else "bad_action"
        return Step(match, reply=reject(match, seat, seq, code, str(error)))
    logged = action.to_json()
    points = after.score.points  # the field, not ScoredGame.points: no call on this path
    played = seat.played(after, seq, logged)
    append = AppendAction(seat.game_id, seq, logged, now,
                          Totals(points, after.state.actions,
                                   round(seat.elapsed_s(now) * 1000)))
    delta, events_out = points - seat.game.score.points, frames.events_json(events)
    if after.state.won:
        won = Step(match.with_seat(played), (append,)).then(
            end(match.with_seat(played), player_id, "won", now, announce=False))
        return _stepped(won, player_id, seq, delta, events_out, now)
    # The common case, built in one go (the hottest path of the server).
    ack = frames.ack(match.match_id, played, seq, delta, events_out, now)
    played.last_ack = ack  # still ours alone: part of building the value
    return Step(match.with_seat(played), (append,), ACKED_ONLY, ack, match)


def _same_step(seat: SeatState, seq: int, data: Payload) -> bool:
    """Whether ``data`` is what was done at ``seq`` (a resend), not another action that
    came with the same seq (two tabs of the player acting at the same instant)."""
    if seq > seat.log_length:  # that seq was the finish, which is not logged
        return data.get("op") == FINISH_OP and set(data) == {"op"}
    try:
        return action_from_json(data).to_json() == seat.log[seq - 1]
    except ActionFormatError:
        return False


def _stepped(step: Step, player_id: int, seq: int, delta: int, events: list[StepEvent],
             now: float) -> Step:
    """The step acknowledged: the ack is the reply, and fans out to spectators, then as
    progress to the match; an ended game is announced last."""
    match = step.match
    seat = match.seat_of(player_id)
    ack = frames.ack(match.match_id, seat, seq, delta, events, now)
    seat = seat.evolve(last_ack=ack)
    return Step(match.with_seat(seat), step.writes,
                step.effects + _fan_out(match, seat, now), ack)


def _fan_out(match: MatchState, seat: SeatState, now: float) -> tuple[Effect, ...]:
    """An acknowledged step, to spectators, then as progress to the match; an ended game
    is announced last."""
    if seat.over:
        return (ACKED, GameEnded(frames.game_over(match.match_id, seat, now)))
    return ACKED_ONLY


def again(match: MatchState, seat: SeatState, seq: int, now: float) -> Step:
    """The answer to a seq already answered: the same ack, marked as a duplicate."""
    last = seat.last_ack
    if last is not None and last.seq == seq and not isinstance(last, RebuiltAck):
        return Step(match, reply=seat_rule.again(last))
    # Rebuilt from the log: the answer is the ack as sent (or, for a finish, the current
    # state), nothing applied again. The process that stored this step may have died
    # before fanning it out: spectators and the opponent see it again (a watch or
    # progress line for a seq already seen changes nothing).
    ack = (last.as_sent() if isinstance(last, RebuiltAck) and last.seq == seq
           else frames.ack(match.match_id, seat, seq, 0, [], now))
    seat = seat.evolve(last_ack=ack)
    return Step(match.with_seat(seat), effects=_fan_out(match, seat, now),
                reply=seat_rule.again(ack))


def reject(match: MatchState, seat: SeatState, seq: int, code: str, message: str
           ) -> wire.Reject:
    return frames.reject(match.match_id, seat, seq, code, message)


def time_out(match: MatchState, player_id: int) -> Step | None:
    """The seat's timer fired: end the game at its deadline unless it is over already."""
    seat = match.seat_of(player_id)
    if seat.over:
        return None
    return end(match, player_id, "timed_out", seat.deadline)


def hint_state(match: MatchState, player_id: int) -> GameState:
    """The position a hint is computed from (the deadline was checked)."""
    seat = match.seat_of(player_id)
    if seat.over:
        raise GameIsOver(f"the game is over ({seat.status})")
    if seat.started_at is None:
        raise NotOpened("open the game before asking for a hint")
    return seat.game.state


def spectated(match: MatchState, viewer_id: int, player_id: int | None) -> SeatState:
    """The seat a viewer may watch: my opponent's once mine is over, anybody's (named:
    an outsider has no opponent) once the match is over; else :class:`SpectateRefused`."""
    if player_id is None and not match.seated(viewer_id):
        raise SpectateRefused("nobody else may watch a match in progress" if not match.over
                              else "name the player whose game to watch (player_id)")
    target = match.opponent_of(viewer_id) if player_id is None else match.seat_of(player_id)
    if target.player_id == viewer_id:
        raise SpectateRefused("that is your own game: open it with open_game")
    own_over = match.seated(viewer_id) and match.seat_of(viewer_id).over
    if not (match.over or own_over):
        why = "your own game is not over" if match.seated(viewer_id) else (
            "nobody else may watch a match in progress")
        raise SpectateRefused(f"cannot watch this game yet: {why}")
    return target


def replay(match: MatchState, player_id: int) -> wire.Replay:
    seat = match.seat_of(player_id)
    if not match.over:
        raise ReplayNotReady("replays open once both games of the match are over")
    # Always the cards themselves: a client can draw the replay without its own copy
    # of the deal generator (the match result names the deal number for verification).
    return frames.replay(match.match_id, player_id, match.rules, match.start, seat.actions)


def settled(match: MatchState, winner_id: int | None,
            ratings: dict[int, tuple[float | None, float | None]], now: float) -> MatchState:
    """The match with its official result (as the store recorded it)."""
    names = {seat.player_id: seat.name for seat in match.seats}
    return match.evolve(result=frames.match_result(
        match.match_id, match.outcomes(now), winner_id, ratings, match.deal, match.start,
        names))
