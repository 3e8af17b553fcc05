"""Every frame the server sends is built here, and everything about a game in it.

One builder per frame type of the protocol, each making its typed struct of
``app/wire/`` (``tests/rooms/test_frames.py`` reads every one back as its type); the two
that a player's event stream makes itself, ``presence`` and ``resync``, are built in
``app/messaging/stream_frames.py`` and handed on from here, and a solo or daily game's,
which read its row, in ``app/services/solo_frames.py`` (the core's ``ack`` and
``reject`` said as solo says them). ``tests/test_layout.py`` finds any frame built
anywhere else in app/. A frame is immutable: event streams number it (``n``) on a copy.

The frames of every action (ack, progress, watch) read a game's score as
``game.score.points``, the field itself, not ``ScoredGame.points``: no call for it.

Positions go out only through ``app.engine.view.player_view`` (face-down cards and the
stock order appear as counts). Events go out by card *name* only, and only for cards that
are face up once the action is done: a moved run, a flipped card, a dealt row. Card ids
(which follow the deal's layout order) never leave the server.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import msgspec

from app.engine.actions import Action, Deal, Flip, Move
from app.engine.cards import SUITS, card_name, names
from app.engine.events import (
    ActionUndone,
    CardFlipped,
    CardsMoved,
    Event,
    GameWon,
    RowDealt,
    RunCompleted,
)
from app.engine.layout import state_to_layout
from app.engine.rules import Rules
from app.engine.state import GameState
from app.engine.view import player_view
from app.messaging.stream_frames import presence as presence  # made by the event streams
from app.messaging.stream_frames import resync as resync
from app.rewards.badges import BadgeAward
from app.rooms.match import SeatState
from app.rooms.winner import PlayerOutcome
from app.wire import duel as wire
from app.wire import events, game, news, session
from app.wire.session import PROTOCOL_VERSION

Payload = dict[str, Any]


game_view = player_view
"""``game_view(state, memo=None)``: the view of ``state``; with the game's ``memo``, sharing
its unchanged columns (the engine's ``player_view`` itself: no call of ours around it,
once or twice per action)."""


def event_json(event: Event) -> events.Event:
    """An engine event as a step's frames say it (``app/wire/events.py``)."""
    if isinstance(event, CardsMoved):
        return events.Moved(event.src, event.dst, names(event.cards))
    if isinstance(event, CardFlipped):
        return events.Flipped(event.col, card_name(event.card), event.automatic)
    if isinstance(event, RowDealt):
        return events.Dealt(names(event.cards))
    if isinstance(event, RunCompleted):
        return events.CompletedRun(event.col, SUITS[event.suit])
    if isinstance(event, GameWon):
        return WON
    if isinstance(event, ActionUndone):
        return UNDONE
    raise TypeError(f"unknown event {event!r}")


WON, UNDONE = events.Won(), events.Undone()


def events_json(happened: tuple[Event, ...]) -> list[events.Event]:
    return [event_json(event) for event in happened]


# --------------------------------------------------------------------------- game frames


def iso_time(seconds: float) -> str:
    """A moment as the frames say it: ISO 8601, UTC, whole seconds."""
    return datetime.fromtimestamp(round(seconds), UTC).isoformat().replace("+00:00", "Z")


def progress(seat: SeatState, now: float, online: bool, start_deadline: float | None = None
             ) -> wire.Progress:
    """What anybody may know of a game in progress: no card at all. ``start_deadline``
    (the match's) is shown only while the game waits to be opened. ``at_ms``: when
    ``time_left_ms`` was read, on the server's clock: a client dates the clock by it, not
    by the frame's arrival (frames held up by a stalled network come in a burst)."""
    waiting = seat.started_at is None and not seat.over and start_deadline is not None
    return wire.Progress(
        seat.player_id, seat.game.score.points, seat.game.state.actions,
        len(seat.game.state.removed),
        None if seat.started_at is None else seat.time_left_ms(now), round(now * 1000),
        seat.status, online,
        iso_time(start_deadline) if waiting and start_deadline else None,
    )


def progress_event(match_id: int, seat: SeatState, now: float, online: bool,
                   start_deadline: float | None = None) -> wire.ProgressEvent:
    return wire.ProgressEvent(match_id, progress(seat, now, online, start_deadline))


def snapshot(match_id: int, rules: Rules, seat: SeatState, *, role: wire.Role,
             now: float, opponent: wire.Progress | None) -> wire.Snapshot:
    return wire.Snapshot(
        match_id, seat.player_id, role, game_rules(rules),
        game_view(seat.game.state, seat.views), seat.game.points, seat.seq,
        seat.status,
        round(seat.time_limit_s * 1000), seat.time_left_ms(now), opponent,
    )


def ack(match_id: int, seat: SeatState, seq: int, delta: int, happened: list[events.Event],
        now: float, kind: type[wire.Ack] = wire.Ack) -> wire.Ack:
    return kind(
        match_id, seq, game_view(seat.game.state, seat.views), seat.game.score.points,
        delta, happened, seat.status,  # type: ignore[arg-type]  # an ack's by construction
        seat.time_left_ms(now),
    )


class RebuiltAck(wire.Ack, frozen=True):
    """A logged action's ack rebuilt from the log: the first resend fans it out again."""

    def as_sent(self) -> wire.Ack:
        """The ack itself, as it was sent (no longer marked as rebuilt)."""
        return wire.Ack(**msgspec.structs.asdict(self))


def rebuilt_ack(match_id: int, seat: SeatState, seq: int, delta: int,
                happened: list[events.Event], now: float) -> RebuiltAck:
    """``ack``, marked as rebuilt from the log (``app/rooms/seat_log.py``): made as one,
    not copied from a plain ack (a follower rebuilds one for each action it follows)."""
    rebuilt = ack(match_id, seat, seq, delta, happened, now, RebuiltAck)
    assert isinstance(rebuilt, RebuiltAck)
    return rebuilt


def reject(match_id: int, seat: SeatState, seq: int, code: str, message: str) -> wire.Reject:
    return wire.Reject(match_id, seq, code, message, game_view(seat.game.state, seat.views),
                       seat.game.points, seat.seq + 1, seat.status)


def watch(match_id: int, seat: SeatState, ack: wire.Ack) -> wire.WatchEvent:
    """A step for spectators: the ack's view and events as they are (never mutated)."""
    return wire.WatchEvent(match_id, seat.player_id, seat.seq, ack.view,
                           seat.game.score.points, ack.events, seat.status)


def game_over(match_id: int, seat: SeatState, now: float) -> wire.GameOver:
    assert seat.end_reason is not None
    return wire.GameOver(match_id, seat.player_id,
                         seat.status,  # type: ignore[arg-type]  # an ended game's: an end reason
                         seat.game.points, round(seat.elapsed_s(now) * 1000))


def match_result(match_id: int, outcomes: list[PlayerOutcome], winner_id: int | None,
                 ratings: dict[int, tuple[float | None, float | None]],
                 deal: Payload, start: GameState, names: dict[int, str | None] | None = None
                 ) -> wire.MatchResult:
    """``deal``: the match's stored deal (``app/rooms/deal_forms.py``), ``start`` its
    starting position; ``names``: each player's name when the match was made."""
    names = names or {}
    results = [
        wire.PlayerResult(o.player_id, names.get(o.player_id), o.score, o.elapsed_ms,
                          o.reason, *ratings.get(o.player_id, (None, None)))
        for o in outcomes
    ]
    return wire.MatchResult(match_id, winner_id, results, revealed_deal(deal, start))


def replay(match_id: int, player_id: int, rules: Rules, start: GameState,
           moves: tuple[Payload, ...]) -> wire.Replay:
    """A game's full record (``moves``: its logged actions): only once the match is over."""
    return wire.Replay(match_id, player_id, game.GameRecord(
        game_rules(rules), layout(start), logged_actions(moves)))


def hint(match_id: int, action: Action | None, reason: str) -> wire.Hint:
    return wire.Hint(match_id, None if action is None else played(action), reason)


# --------------------------------------------------------------------------- game parts


@lru_cache(maxsize=64)
def game_rules(rules: Rules) -> game.GameRules:
    """The rules as a frame says them: the rule book's ``rules`` object (``to_json``: the
    preset and suits, and the options that differ from the preset's), one per rules."""
    return msgspec.convert(rules.to_json(), game.GameRules)


DEAL, UNDO = game.DealAction(), game.UndoAction()


def played(action: Action) -> game.PlayedAction:
    """An action as a frame says it (a hint's, an assist's step)."""
    if isinstance(action, Move):
        return game.MoveAction(action.src, action.dst, action.count)
    if isinstance(action, Flip):
        return game.FlipAction(action.col)
    return DEAL if isinstance(action, Deal) else UNDO


_LOGGED = list[game.PlayedAction]


def logged_actions(moves: tuple[Payload, ...] | list[Payload]) -> list[game.PlayedAction]:
    """Logged actions (the engine's JSON form, as the log keeps them) as a frame says them."""
    return msgspec.convert(moves, _LOGGED)


def layout(state: GameState) -> game.Layout:
    """The whole position, face-down cards and stock included (the rule book's layout,
    ``state_to_layout``): only for a record or a deal revealed once the match is over."""
    return msgspec.convert(state_to_layout(state), game.Layout)


def revealed_deal(stored: Payload, start: GameState) -> wire.RevealedDeal:
    """What may be revealed once both games are over: the whole deal (a stored layout as
    the position it starts), and ``play``, the solo options that deal it again (a seed:
    never sooner). A field the stored deal does not have is left out."""
    unset = msgspec.UNSET
    play = stored.get("play")
    return wire.RevealedDeal(
        stored.get("difficulty", unset), stored.get("number", unset),
        stored.get("generator", unset), layout(start) if "layout" in stored else unset,
        unset if play is None else msgspec.convert(play, wire.DealPlay))


# --------------------------------------------------------------------------- other frames


def welcome(*, version: int = PROTOCOL_VERSION, player_id: int, stream: str, last_event: int,
            resumed: bool) -> session.Welcome:
    return session.Welcome(version, player_id, stream, last_event, resumed)


def resume_result(*, resumed: bool, stream: str, last_event: int) -> session.ResumeResult:
    return session.ResumeResult(resumed, stream, last_event)


def lobby(change: str, table: news.LobbyTable) -> news.Lobby:
    return news.Lobby(change, table)  # type: ignore[arg-type]  # the lobby's own changes


def quick_looking(looking: int) -> news.QuickLooking:
    return news.QuickLooking(looking)


def invite(invite: news.Invitation) -> news.InviteEvent:
    return news.InviteEvent(invite)


def friend(change: news.FriendChange, player_id: int, name: str) -> news.Friend:
    """Friend-request news for one player, about ``player_id`` (who asked, answered...)."""
    return news.Friend(change, player_id, name)


def said(match_id: int, player_id: int, code: news.SayCode) -> news.Said:
    """A canned message at a duel table: a code, never free text."""
    return news.Said(match_id, player_id, code)


def error(code: str, message: str) -> session.Error:
    return session.Error(code, message)


def badge(award: BadgeAward, kind: news.GameKind, game_id: int) -> news.BadgeEarned:
    """A badge just earned by the game ``kind`` (solo, daily, duel) ``game_id``."""
    earned_at = award.earned_at.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return news.BadgeEarned(
        news.EarnedBadge(award.code, award.title, award.description, earned_at),
        news.BadgeGame(kind, game_id))


PONG = session.Pong()
