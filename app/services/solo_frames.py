"""Every frame of a solo or daily game is built here (docs/solo-and-daily.md, section 5).

One builder per frame type, each making its typed struct of ``app/wire/solo.py``
(``tests/services/test_solo_frames.py`` reads every one back as its type), as
``app/rooms/frames.py`` is for a duel's. A step's answer comes from the duel core
(``frames.ack``/``reject`` of the game's one-seat match) and is said here as solo says
it: with the game's id, its row's score and status, its elapsed time and whether the
auto-complete is offered.

Positions go out only through ``game_view`` (the engine's ``player_view``); a daily's
number and every game's generator deal only once the game is over (``over``).
"""

from __future__ import annotations

from typing import Literal, cast

from app.db.solo_models import SoloGame
from app.engine.actions import Action
from app.engine.state import GameState
from app.rewards.points import EarnedPoints
from app.rooms.duel_core import Reply
from app.rooms.frames import game_rules, game_view, played
from app.services.solo_store import breakdown_of, options_of
from app.services.solo_views import iso_date, revealed_number
from app.wire import duel
from app.wire import solo as wire
from app.wire.events import Event as StepEvent

Answer = wire.SoloAck | wire.SoloReject


def snapshot(game: SoloGame, state: GameState, *, elapsed_ms: int, offered: bool
             ) -> wire.SoloSnapshot:
    """``solo_snapshot``: the whole visible state of the game."""
    options = options_of(game)
    return wire.SoloSnapshot(
        game.id, _kind(game), revealed_number(game), iso_date(game.daily_date),
        wire.SoloGameOptions(options.suits,  # type: ignore[arg-type]  # 1, 2 or 4
                             options.solvable_only, options.relaxed),
        game_rules(state.rules), game.difficulty,  # type: ignore[arg-type]
        game_view(state), game.score, state.actions, _status(game), elapsed_ms,
        game.hints, game.rescues, offered, game.points,
    )


def reject(game: SoloGame, state: GameState, seq: int, code: str, message: str
           ) -> wire.SoloReject:
    """``solo_reject``: nothing applied; the view for a resync and the next seq."""
    return wire.SoloReject(game.id, seq, code, message, game_view(state), game.score,
                           state.actions + 1, _status(game))


def answer(game: SoloGame, state: GameState, reply: Reply, *, elapsed_ms: int,
           offered: bool) -> Answer:
    """The duel core's answer to a step of the game (``reply``: ``ack`` or ``reject``,
    or the seat's cached ``solo_ack`` given again, sent as it is). ``state``: the
    position after the step."""
    if isinstance(reply, duel.Reject):
        return reject(game, state, reply.seq, reply.code, reply.message)
    if isinstance(reply, wire.SoloAck):
        return reply
    return wire.SoloAck(game.id, reply.seq, reply.view, game.score, reply.delta,
                        reply.events, _status(game), elapsed_ms, offered)


def step(seq: int, action: Action, by: str, events: list[StepEvent]) -> wire.SoloStep:
    """One action played for the player, inside ``solo_assist``'s ``steps``."""
    return wire.SoloStep(seq, played(action), by, events)  # type: ignore[arg-type]  # the assists'


def assist(game: SoloGame, state: GameState, *, kind: str, verdict: str, message: str,
           steps: list[wire.SoloStep], cost: int, elapsed_ms: int, offered: bool
           ) -> wire.SoloAssist:
    """``solo_assist``: a rescue's, the auto-complete's or an undo to the last winnable
    position's answer: the steps played, then where the game stands."""
    return wire.SoloAssist(
        game.id, kind, verdict, message,  # type: ignore[arg-type]  # the assists' own words
        steps, game_view(state), game.score, state.actions, _status(game), elapsed_ms,
        game.rescues, cost, offered,
    )


def hint(game_id: int, action: Action | None, verdict: str, reason: str, *,
         undos: int | None = None, move: int | None = None) -> wire.SoloHint:
    """``solo_hint``: the guided hint (this connection only, not numbered)."""
    return wire.SoloHint(game_id, None if action is None else played(action), reason,
                         verdict, undos, move)  # type: ignore[arg-type]  # the guide's


def over(game: SoloGame) -> wire.SoloOver:
    """``solo_over``: the end of a game, with its number and deal now revealed."""
    return wire.SoloOver(
        game.id, game.status,  # type: ignore[arg-type]  # an ended game's
        game.elapsed_ms, game.actions_count, game.points, _breakdown(breakdown_of(game)),
        game.number, game.source_deal, iso_date(game.daily_date), game.assisted,
        wire.SoloAssistCounts(game.hints, game.rescues, game.undo_to_winnable,
                              int(game.auto_completed)),
    )


def _breakdown(points: EarnedPoints | None) -> wire.PointsBreakdown | None:
    if points is None:
        return None
    return wire.PointsBreakdown(points.base, points.speed, points.economy,
                                str(points.multiplier), points.rescue_cost, points.floor,
                                points.total)


def _status(game: SoloGame) -> wire.SoloStatus:
    return cast(wire.SoloStatus, game.status)


def _kind(game: SoloGame) -> Literal["solo", "daily"]:
    return cast(Literal["solo", "daily"], game.kind)
