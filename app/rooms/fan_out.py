"""A made step told to everyone but its player: the spectators' frame, the match's
progress line, the other processes' news, a game's end, the match's result.

A step's messages are posted one after the other and then awaited
(``app.messaging.pubsub.poster``): with Redis they go out in one pipeline, one round trip
instead of one each, in the order posted. The runner (``app/rooms/step_runner.py``)
calls these under the game's lock, so what one game publishes keeps its order.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.messaging.pubsub import PubSub, may_deliver, poster
from app.rooms import frames
from app.rooms.duel_core import AppendAction
from app.rooms.live_match import LiveMatch
from app.rooms.match import SeatState
from app.rooms.peers import PeerSync
from app.rooms.peers import channel as sync_channel
from app.rooms.store import StoredAction
from app.runtime import metrics
from app.runtime.clock import Clock
from app.wire import duel as wire
from app.wire.base import Frame

log = logging.getLogger(__name__)

Posted = tuple[Awaitable[None], str, str]
"""A message posted: its sending, what it is and where it goes (for the log)."""


@dataclass(kw_only=True, eq=False)
class FanOut:
    """``peers``: other processes hold copies of the matches (told of each change)."""

    pubsub: PubSub
    clock: Clock
    is_online: Callable[[int], bool]
    peers: PeerSync | None = None

    def __post_init__(self) -> None:
        self._post = poster(self.pubsub)

    async def acked(self, live: LiveMatch, player_id: int, appended: AppendAction | None
                    ) -> None:
        """A player's action made: its step to the spectators, the progress line, the
        other processes' copies (they apply ``appended``, the action just logged)."""
        seat = live.value.seat_of(player_id)
        watch = live.watch_channels[player_id]
        posted: list[Posted] = []
        # A spectator follows the channel under this game's lock before taking its
        # snapshot, and steps happen under the same lock: a step nobody can receive now
        # is in every later snapshot, so it needs no frame.
        if may_deliver(self.pubsub, watch):
            assert isinstance(seat.last_ack, wire.Ack)  # the ack of the step just adopted
            posted.append(self._posted(watch, frames.watch(live.match_id, seat,
                                                           seat.last_ack)))
        posted.append(self._posted(live.channel, self._progress_event(live, seat)))
        self._tell_peers(posted, live, ended=seat.over, player_id=player_id,
                         appended=appended)
        await _sent(posted)

    async def progress_changed(self, live: LiveMatch, player_id: int, *, ended: bool
                               ) -> None:
        """Any other change of a game (opened, ended): the progress line, and the other
        processes' copies told (they follow an opening, and rebuild for an end)."""
        seat = live.game_of(player_id)
        posted = [self._posted(live.channel, self._progress_event(live, seat))]
        self._tell_peers(posted, live, ended=ended, player_id=player_id,
                         opened_at=None if ended else seat.started_at)
        await _sent(posted)

    async def publish(self, channel: str, message: Frame) -> None:
        await _sent([self._posted(channel, message)])

    async def publish_progress(self, live: LiveMatch, seat: SeatState) -> None:
        await self.publish(live.channel, self._progress_event(live, seat))

    def progress(self, live: LiveMatch, seat: SeatState) -> wire.Progress:
        return frames.progress(seat, self.clock(), self.is_online(seat.player_id),
                               live.value.start_deadline)

    def _progress_event(self, live: LiveMatch, seat: SeatState) -> wire.ProgressEvent:
        # The start deadline shows only on a game not opened yet: not worked out otherwise.
        deadline = live.value.start_deadline if seat.started_at is None else None
        return frames.progress_event(live.match_id, seat, self.clock(),
                                     self.is_online(seat.player_id), deadline)

    def _posted(self, channel: str, message: Frame) -> Posted:
        return self._post(channel, message), type(message).__name__, channel

    def _tell_peers(self, posted: list[Posted], live: LiveMatch, *, ended: bool,
                    player_id: int | None = None, appended: AppendAction | None = None,
                    opened_at: float | None = None) -> None:
        if self.peers is None:
            return
        logged = (None if appended is None
                  else StoredAction(appended.seq, appended.action, appended.at))
        # A failure is logged like any fan-out's: their copies are checked against the
        # log's seqs all the same.
        posted.append((self.peers.told(live.match_id, ended=ended, player_id=player_id,
                                       logged=logged, opened_at=opened_at),
                       "sync", sync_channel(live.match_id)))


async def _sent(posted: list[Posted]) -> None:
    """Wait for a made step's messages, in order. A failure (Redis away) is no second
    answer to the player and stops none of the step's other effects (timers, the
    settling): the bus tells the watchers it lost a message (a gap, then resync:
    docs/protocol.md)."""
    for sending, what, channel in posted:
        try:
            await sending
        except Exception:
            metrics.ERRORS.labels(where="fan_out").inc()
            log.warning("could not publish a %s on %s", what, channel, exc_info=True)
