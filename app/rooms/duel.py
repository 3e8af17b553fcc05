"""Live duels: the only mutable game state of the server, one match at a time.

A match holds one game per seat, all on the same stored deal. Each game is a
:class:`ScoredGame` fold plus a server-owned clock that starts when its player opens it
and runs until the game ends, connected or not; a server task ends it at the deadline.

Every action is validated by the engine, appended to the durable action log, and only
then applied in memory and acknowledged. Sequence numbers: an action's ``seq`` is its
position in the game's log (1, 2, …); "finish" takes the next seq too but ends the game
row instead of entering the log (the log holds rule-book actions only). ``seq`` = last
answered → the same answer again (never applied twice); lower → ``stale_seq``; higher
than next → ``bad_seq``; both rejections carry the authoritative view for a resync.
An illegal action consumes no seq.

Fan-out goes through pubsub channels; answers to a request are returned to the caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.engine.actions import ActionFormatError, action_from_json
from app.engine.errors import IllegalAction
from app.engine.layout import state_to_layout
from app.engine.rules import Rules, rules_from_json
from app.engine.solver.advice import hint as visible_hint
from app.engine.state import GameState
from app.engine.view import ViewMemo
from app.rooms import channels
from app.rooms.deal_forms import choose_deal, public_deal, start_state
from app.rooms.peers import PeerSync
from app.rooms.projection import events_json, game_view
from app.rooms.pubsub import PubSub, may_deliver
from app.rooms.store import (
    DuelStore,
    Progress,
    SeqTaken,
    StoredGame,
    StoredMatch,
    StoreError,
)
from app.rooms.winner import NO_SHOW, PlayerOutcome
from app.scoring.play import ScoredGame

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Follow = Callable[[str], Awaitable[None]]
Payload = dict[str, Any]

FINISH_OP = "finish"
DID_NOT_START = NO_SHOW
"""How a game never opened by its start deadline ended (the no-show rule, docs/api.md)."""
SETTLED_CACHE = 500
HINTS_AT_ONCE = 2
"""Hints computed at the same time, server-wide: each holds a worker thread for a few ms."""


class RoomError(ValueError):
    """A request the rooms layer refuses; ``code`` goes to the client with the message."""

    code = "room_error"


class NoSuchMatch(RoomError):
    code = "no_such_match"


class NotSeated(RoomError):
    code = "not_seated"


class SpectateRefused(RoomError):
    code = "spectate_refused"


class ReplayNotReady(RoomError):
    code = "replay_not_ready"


class NotOpened(RoomError):
    code = "not_opened"


class GameIsOver(RoomError):
    code = "game_over"


@dataclass(eq=False)
class LiveGame:
    game_id: int
    player_id: int
    time_limit_s: float
    game: ScoredGame
    name: str | None = None  # the player's name when the match was made (for its result)
    seq: int = 0
    # As JSON (dicts of ints and strings): kept for the game's whole life, and such dicts
    # are nothing the garbage collector walks, where Move and Flip objects are.
    actions: list[Payload] = field(default_factory=list)
    started_at: float | None = None
    ended_at: float | None = None
    end_reason: str | None = None
    last_ack: Payload | None = None
    views: ViewMemo = field(default_factory=ViewMemo)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None

    @property
    def over(self) -> bool:
        return self.ended_at is not None

    @property
    def status(self) -> str:
        if self.end_reason == "timed_out" and self.started_at is None:
            return DID_NOT_START  # stored as a time-out of a game never opened
        if self.end_reason is not None:
            return self.end_reason
        return "not_started" if self.started_at is None else "playing"

    @property
    def deadline(self) -> float:
        assert self.started_at is not None
        return self.started_at + self.time_limit_s

    def elapsed_s(self, now: float) -> float:
        return self.elapsed_if_ended(self.end_reason, self.ended_at or now)

    def elapsed_if_ended(self, reason: str | None, at: float) -> float:
        if self.started_at is None:  # never opened: an expired table counts the whole limit
            return self.time_limit_s if reason == "timed_out" else 0.0
        return min(max(0.0, at - self.started_at), self.time_limit_s)

    def time_left_ms(self, now: float) -> int:
        return round((self.time_limit_s - self.elapsed_s(now)) * 1000)


@dataclass(eq=False)
class LiveMatch:
    match_id: int
    rules: Rules
    deal: Payload
    start: GameState
    games: list[LiveGame]
    result: Payload | None = None
    expires_at: float | None = None  # the table's: games nobody opened by then time out
    start_by: float | None = None  # the start window's end: the same, usually sooner
    expiry: asyncio.Task[None] | None = None

    @property
    def start_deadline(self) -> float | None:
        """When a game nobody opened ends as "did not start"."""
        deadlines = [d for d in (self.start_by, self.expires_at) if d is not None]
        return min(deadlines) if deadlines else None

    @property
    def over(self) -> bool:
        return all(game.over for game in self.games)

    def seated(self, player_id: int) -> bool:
        return any(game.player_id == player_id for game in self.games)

    def game_of(self, player_id: int) -> LiveGame:
        for game in self.games:
            if game.player_id == player_id:
                return game
        raise NotSeated(f"player {player_id} has no seat in match {self.match_id}")

    def opponent_of(self, player_id: int) -> LiveGame:
        self.game_of(player_id)
        for game in self.games:
            if game.player_id != player_id:
                return game
        raise NotSeated(f"match {self.match_id} has no opponent for player {player_id}")


def iso_time(seconds: float) -> str:
    """A moment as the frames say it: ISO 8601, UTC, whole seconds."""
    return datetime.fromtimestamp(round(seconds), UTC).isoformat().replace("+00:00", "Z")


def _rebuild_game(stored: StoredGame, start: GameState, limit: float) -> LiveGame:
    """Replay the game's log over the deal; the stored end (finish, time-out) is authoritative."""
    game = LiveGame(stored.game_id, stored.player_id, limit, ScoredGame.start(start),
                    name=stored.name)
    game.started_at = stored.started_at
    for entry in sorted(stored.actions, key=lambda a: a.seq):
        action = action_from_json(entry.action)
        game.game = game.game.play(action)[0]
        game.actions.append(action.to_json())
        game.seq = entry.seq
        if game.game.state.won and game.ended_at is None:
            game.ended_at, game.end_reason = entry.at, "won"
    if stored.ended_at is not None:
        game.ended_at, game.end_reason = stored.ended_at, stored.end_reason
    return game


class DuelService:
    def __init__(
        self,
        *,
        store: DuelStore,
        pubsub: PubSub,
        clock: Clock = time.time,
        is_online: Callable[[int], bool] = lambda player_id: False,
        allow_test_layouts: bool = False,
        peers: bool = False,
    ) -> None:
        self._store = store
        # Several processes (app/rooms/peers.py): drop our copy when another one changes it.
        self._peers = PeerSync(pubsub, self._peer_changed) if peers else None
        self._pubsub = pubsub
        self._clock = clock
        self._is_online = is_online
        self._allow_test_layouts = allow_test_layouts
        self._matches: dict[int, LiveMatch] = {}
        self._settled: deque[int] = deque()  # finished matches still cached, oldest first
        self._loading = asyncio.Lock()
        self._hinting = asyncio.Semaphore(HINTS_AT_ONCE)

    # ------------------------------------------------------------------ loading

    async def restore(self) -> int:
        """After a start: rebuild every unfinished match so its clocks run again."""
        ids = await self._store.unfinished_match_ids()
        for match_id in ids:
            await self.match(match_id)
        return len(ids)

    async def match(self, match_id: int) -> LiveMatch:
        live = self._matches.get(match_id)
        if live is not None:
            return live
        async with self._loading:
            live = self._matches.get(match_id)
            if live is None:
                live = await self._load(match_id)
        return live

    async def _load(self, match_id: int) -> LiveMatch:
        stored = await self._store.load_match(match_id)
        if stored is None:
            raise NoSuchMatch(f"there is no match {match_id}")
        rules = rules_from_json(stored.rules)
        deal = stored.deal or await self._store.set_deal(match_id, self._new_deal(rules, stored))
        start = start_state(rules, deal)
        games = [_rebuild_game(game, start, stored.time_limit_s) for game in stored.games]
        live = LiveMatch(match_id, rules, deal, start, games, expires_at=stored.expires_at,
                         start_by=stored.start_by)
        self._matches[match_id] = live
        if self._peers is not None:
            await self._peers.watch(match_id)
        await self._resume_clocks(live, stored)
        return live

    def _new_deal(self, rules: Rules, stored: StoredMatch) -> Payload:
        if self._allow_test_layouts and stored.test_layout is not None:
            return {"layout": stored.test_layout}
        return choose_deal(rules)

    async def _resume_clocks(self, live: LiveMatch, stored: StoredMatch) -> None:
        now = self._clock()
        for game, row in zip(live.games, stored.games, strict=True):
            if game.over and row.ended_at is None:  # the log says over; the row lags behind
                assert game.end_reason is not None and game.ended_at is not None
                await self._store.end_game(
                    game.game_id, game.end_reason, game.ended_at, self._totals(game, now)
                )
            elif game.started_at is not None and not game.over:
                if now >= game.deadline:
                    await self._end(live, game, "timed_out", game.deadline)
                else:
                    self._arm(live, game)
            elif self._expired(live, game):  # never opened, the start deadline passed
                await self._end(live, game, "timed_out", live.start_deadline or now)
        if any(g.started_at is None and not g.over for g in live.games):
            live.expiry = asyncio.create_task(self._expire_later(live))
        if live.over and not stored.finished:
            await self._conclude(live)
        elif live.over:
            outcomes = self._outcomes(live)
            live.result = self._result_payload(live, outcomes, stored.winner_id, {})
            self._keep_settled(live.match_id)

    # ------------------------------------------------------------------ playing

    async def open_game(self, *, player_id: int, match_id: int, follow: Follow) -> Payload:
        """Start my clock (first time only) and return my snapshot; follow the match."""
        live = await self.match(match_id)
        game = live.game_of(player_id)
        async with game.lock:
            await follow(channels.match(match_id))
            if self._expired(live, game):
                await self._end(live, game, "timed_out", live.start_deadline or self._clock())
            if game.started_at is None and not game.over:
                now = self._clock()
                await self._store.start_game(game.game_id, now)
                game.started_at = now
                self._arm(live, game)
                await self._publish_progress(live, game)
                await self._tell_peers(live, ended=False)
            return self._snapshot(live, game, role="player")

    async def act(
        self, *, player_id: int, match_id: int, seq: int, action: Payload
    ) -> Payload:
        live = await self.match(match_id)
        game = live.game_of(player_id)
        async with game.lock:
            return await self._act(live, game, seq, action)

    async def finish(self, *, player_id: int, match_id: int, seq: int) -> Payload:
        return await self.act(
            player_id=player_id, match_id=match_id, seq=seq, action={"op": FINISH_OP}
        )

    async def hint(self, *, player_id: int, match_id: int) -> Payload:
        """A suggested next action for my own game in progress; changes nothing.

        The advice sees only what the player sees (app.engine.solver.advice.hint), so its
        answer may go to the client as it is. The state is read under the game's lock and
        the search runs in a worker thread, outside the lock and off the event loop.
        """
        live = await self.match(match_id)
        game = live.game_of(player_id)
        async with game.lock:
            if game.started_at is not None and not game.over and self._clock() >= game.deadline:
                await self._end(live, game, "timed_out", game.deadline)
            if game.over:
                raise GameIsOver(f"the game is over ({game.status})")
            if game.started_at is None:
                raise NotOpened("open the game before asking for a hint")
            state = game.game.state  # immutable: safe to read after the lock is released
        async with self._hinting:
            advice = await asyncio.to_thread(visible_hint, state)
        return {"type": "hint", "match_id": match_id,
                "action": None if advice.action is None else advice.action.to_json(),
                "reason": advice.reason}

    async def _act(self, live: LiveMatch, game: LiveGame, seq: int, action: Payload) -> Payload:
        now = self._clock()
        if game.started_at is not None and not game.over and now >= game.deadline:
            await self._end(live, game, "timed_out", game.deadline)
        if (game.last_ack is not None and seq == game.last_ack["seq"]) or (
            game.seq > 0 and seq == game.seq
        ):
            return self._again(live, game, seq, now)
        if game.over:
            return self._reject(live, game, seq, "game_over", f"the game is over ({game.status})")
        if game.started_at is None:
            return self._reject(live, game, seq, "not_opened", "open the game before playing")
        if seq < game.seq:
            return self._reject(live, game, seq, "stale_seq",
                                f"seq {seq} is older than the last applied ({game.seq})")
        if seq > game.seq + 1:
            return self._reject(live, game, seq, "bad_seq", f"the next seq is {game.seq + 1}")
        if action.get("op") == FINISH_OP and set(action) == {"op"}:
            return await self._apply_finish(live, game, seq, now)
        return await self._apply_action(live, game, seq, action, now)

    async def _apply_action(
        self, live: LiveMatch, game: LiveGame, seq: int, data: Payload, now: float
    ) -> Payload:
        try:
            action = action_from_json(data)
            after, events = game.game.play(action)
        except (ActionFormatError, IllegalAction) as error:
            code = error.code if isinstance(error, IllegalAction) else "bad_action"
            return self._reject(live, game, seq, code, str(error))
        try:
            totals = Progress(after.points, after.state.actions,
                              round(game.elapsed_s(now) * 1000))
            logged = action.to_json()
            await self._store.append_action(game.game_id, seq, logged, now, totals)
        except SeqTaken:
            # Another process logged this seq first: the log decides. Rebuild from it and
            # answer as the fresh game would (a duplicate, or a rejection with a resync).
            await self._invalidate(live.match_id)
            fresh = await self.match(live.match_id)
            again = fresh.game_of(game.player_id)
            async with again.lock:
                return await self._act(fresh, again, seq, data)
        except StoreError as error:
            return self._reject(live, game, seq, "not_stored", f"not saved, try again: {error}")
        delta = after.points - game.game.points
        game.game, game.seq = after, seq
        game.actions.append(logged)
        event_list = events_json(events)
        if after.state.won:
            await self._end(live, game, "won", now, announce=False)
        ack = self._ack(live, game, seq, delta, event_list, now)
        await self._after_step(live, game, ack)
        return ack

    async def _apply_finish(
        self, live: LiveMatch, game: LiveGame, seq: int, now: float
    ) -> Payload:
        # "Terminer" is not a move of the rule book: it ends the game row, not the log.
        try:
            await self._end(live, game, "finished", now, announce=False)
        except StoreError as error:
            return self._reject(live, game, seq, "not_stored", f"not saved, try again: {error}")
        ack = self._ack(live, game, seq, 0, [], now)
        await self._after_step(live, game, ack)
        return ack

    async def _after_step(self, live: LiveMatch, game: LiveGame, ack: Payload) -> None:
        """Fan a step out: to spectators of the game, then as progress to the match."""
        watch = channels.watch(live.match_id, game.player_id)
        # A spectator follows the channel under this game's lock before taking its
        # snapshot, and steps happen under the same lock: a step nobody can receive now is
        # in every later snapshot, so it needs no frame. Frames are never mutated once
        # built (sessions copy them shallowly to number them): the ack's view and events
        # go out again as they are.
        if may_deliver(self._pubsub, watch):
            await self._pubsub.publish(watch, {
                "type": "watch", "match_id": live.match_id, "player_id": game.player_id,
                "seq": game.seq, "view": ack["view"], "score": game.game.points,
                "events": ack["events"], "status": game.status,
            })
        await self._publish_progress(live, game)
        await self._tell_peers(live, ended=game.over)
        if game.over:
            await self._announce_end(live, game)

    # ------------------------------------------------------------------ ending

    def _arm(self, live: LiveMatch, game: LiveGame) -> None:
        game.timer = asyncio.create_task(self._time_out_later(live, game))

    async def _time_out_later(self, live: LiveMatch, game: LiveGame) -> None:
        await asyncio.sleep(max(0.0, game.deadline - self._clock()))
        async with game.lock:
            if not game.over:
                game.timer = None  # this task is finishing the game itself
                await self._end(live, game, "timed_out", game.deadline)

    def _expired(self, live: LiveMatch, game: LiveGame) -> bool:
        """A game nobody opened by the start deadline (the start window's end, or the
        table's expiry): its player did not start."""
        deadline = live.start_deadline
        return (game.started_at is None and not game.over and deadline is not None
                and self._clock() >= deadline)

    async def _expire_later(self, live: LiveMatch) -> None:
        deadline = live.start_deadline
        if deadline is None:
            return
        # The loop's timer may wake a hair before the wall clock says so: sleep again.
        while (delay := deadline - self._clock()) > 0:
            await asyncio.sleep(delay)
        for game in live.games:
            async with game.lock:
                if self._expired(live, game):
                    await self._end(live, game, "timed_out", deadline)

    async def _end(
        self, live: LiveMatch, game: LiveGame, reason: str, at: float, *, announce: bool = True
    ) -> None:
        """Record the end, then apply it in memory.

        A win or a time-out stands even if the write fails: the log and the clock prove it
        again when the match is rebuilt. A finish does not: the player is told and retries.
        """
        try:
            totals = Progress(game.game.points, game.game.state.actions,
                              round(game.elapsed_if_ended(reason, at) * 1000))
            await self._store.end_game(game.game_id, reason, at, totals)
        except StoreError:
            if reason == "finished":
                raise
            log.exception("could not record the end of game %d (%s)", game.game_id, reason)
        game.ended_at, game.end_reason = at, reason
        if game.timer is not None and game.timer is not asyncio.current_task():
            game.timer.cancel()
        game.timer = None
        if announce:
            await self._publish_progress(live, game)
            await self._tell_peers(live, ended=True)
            await self._announce_end(live, game)

    async def _announce_end(self, live: LiveMatch, game: LiveGame) -> None:
        assert game.end_reason is not None
        await self._pubsub.publish(channels.match(live.match_id), {
            "type": "game_over", "match_id": live.match_id, "player_id": game.player_id,
            "reason": game.status, "score": game.game.points,
            "elapsed_ms": round(game.elapsed_s(self._clock()) * 1000),
        })
        if live.over and live.result is None:
            await self._conclude(live)

    def _outcomes(self, live: LiveMatch) -> list[PlayerOutcome]:
        now = self._clock()
        return [
            PlayerOutcome(g.player_id, g.game.points, g.elapsed_s(now),
                          g.status if g.over else "finished")
            for g in live.games
        ]

    async def _conclude(self, live: LiveMatch) -> None:
        outcomes = self._outcomes(live)
        try:
            settled = await self._store.finish_match(live.match_id, outcomes)
        except Exception:  # the games stay over; the next restore settles the match
            log.exception("could not settle match %d", live.match_id)
            return
        live.result = self._result_payload(live, outcomes, settled.winner_id, settled.ratings)
        self._keep_settled(live.match_id)
        for game in live.games:
            await self._pubsub.publish(channels.player(game.player_id), live.result)
        for player_id, notice in settled.notices:  # badges earned, after the result
            await self._pubsub.publish(channels.player(player_id), notice)

    def _result_payload(
        self,
        live: LiveMatch,
        outcomes: list[PlayerOutcome],
        winner: int | None,
        ratings: dict[int, tuple[float | None, float | None]],
    ) -> Payload:
        names = {game.player_id: game.name for game in live.games}
        results = [
            {"player_id": o.player_id, "name": names.get(o.player_id), "score": o.score,
             "elapsed_ms": o.elapsed_ms, "reason": o.reason,
             "rating_before": ratings.get(o.player_id, (None, None))[0],
             "rating_after": ratings.get(o.player_id, (None, None))[1]}
            for o in outcomes
        ]
        return {"type": "match_result", "match_id": live.match_id, "winner_id": winner,
                "results": results, "deal": public_deal(live.deal)}

    # ------------------------------------------------------------------ watching

    async def spectate(
        self, *, viewer_id: int, match_id: int, player_id: int | None, follow: Follow
    ) -> Payload:
        live = await self.match(match_id)
        target = live.opponent_of(viewer_id) if player_id is None else live.game_of(player_id)
        if target.player_id == viewer_id:
            raise SpectateRefused("that is your own game: open it with open_game")
        own_over = live.seated(viewer_id) and live.game_of(viewer_id).over
        if not (live.over or own_over):
            why = "your own game is not over" if live.seated(viewer_id) else (
                "nobody else may watch a match in progress")
            raise SpectateRefused(f"cannot watch this game yet: {why}")
        async with target.lock:
            await follow(channels.watch(match_id, target.player_id))
            await follow(channels.match(match_id))
            return self._snapshot(live, target, role="spectator")

    async def replay(self, *, viewer_id: int, match_id: int, player_id: int) -> Payload:
        live = await self.match(match_id)
        game = live.game_of(player_id)
        if not live.over:
            raise ReplayNotReady("replays open once both games of the match are over")
        # Always the cards themselves: a client can draw the replay without its own copy
        # of the deal generator (the match result names the deal number for verification).
        record: Payload = {
            "rules": live.rules.to_json(),
            "layout": state_to_layout(live.start),
            "moves": list(game.actions),
        }
        return {"type": "replay", "match_id": match_id, "player_id": player_id,
                "record": record}

    async def resync(self, *, player_id: int, follow: Follow) -> list[Payload]:
        """Fresh snapshots of the player's opened games in unfinished matches (reconnects)."""
        snapshots = []
        for match_id in await self._store.unfinished_match_ids(player_id):
            live = await self.match(match_id)
            game = live.game_of(player_id)
            if game.started_at is None:
                continue
            async with game.lock:
                await follow(channels.match(match_id))
                snapshots.append(self._snapshot(live, game, role="player"))
        return snapshots

    def _keep_settled(self, match_id: int) -> None:
        """Finished matches stay cached for replays and late spectators, a bounded few."""
        self._settled.append(match_id)
        while len(self._settled) > SETTLED_CACHE:
            self._matches.pop(self._settled.popleft(), None)

    def forget(self, match_id: int) -> None:
        """Drop a cached match nobody has opened yet (its stored deal was replaced)."""
        live = self._matches.get(match_id)
        if live is not None and all(game.started_at is None for game in live.games):
            del self._matches[match_id]

    def cached(self, match_id: int) -> bool:
        return match_id in self._matches

    async def reload(self, match_id: int) -> LiveMatch:
        """Drop our copy and rebuild it from the log (ends what is overdue; the sweeper)."""
        await self._invalidate(match_id)
        return await self.match(match_id)

    def result(self, match_id: int) -> Payload | None:
        live = self._matches.get(match_id)
        return None if live is None else live.result

    async def online_changed(self, player_id: int) -> None:
        """A player's presence changed: their opponents see it in the progress line."""
        for live in list(self._matches.values()):
            if live.seated(player_id) and not live.over:
                await self._publish_progress(live, live.game_of(player_id))

    async def _tell_peers(self, live: LiveMatch, *, ended: bool) -> None:
        if self._peers is not None:
            await self._peers.tell(live.match_id, ended=ended)

    async def _peer_changed(self, match_id: int, ended: bool) -> None:
        """Another process changed the match: our copy is stale."""
        await self._invalidate(match_id)
        if ended:  # rebuild now: settles the match if that was the last game to end
            await self.match(match_id)

    async def _invalidate(self, match_id: int) -> None:
        live = self._matches.pop(match_id, None)
        if self._peers is not None:
            await self._peers.unwatch(match_id)
        if live is None:
            return
        for game in live.games:
            if game.timer is not None and game.timer is not asyncio.current_task():
                game.timer.cancel()
            game.timer = None

    async def close(self) -> None:
        if self._peers is not None:
            await self._peers.close()
        for live in self._matches.values():
            if live.expiry is not None:
                live.expiry.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await live.expiry
            for game in live.games:
                if game.timer is not None:
                    game.timer.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await game.timer
                    game.timer = None
        self._matches.clear()

    # ------------------------------------------------------------------ payloads

    def _totals(self, game: LiveGame, now: float) -> Progress:
        return Progress(game.game.points, game.game.state.actions,
                        round(game.elapsed_s(now) * 1000))

    def progress(self, game: LiveGame, live: LiveMatch | None = None) -> Payload:
        now = self._clock()
        waiting = game.started_at is None and not game.over and live is not None
        deadline = live.start_deadline if waiting and live is not None else None
        return {
            "player_id": game.player_id, "score": game.game.points,
            "actions": game.game.state.actions, "runs": len(game.game.state.removed),
            "time_left_ms": None if game.started_at is None else game.time_left_ms(now),
            "status": game.status, "online": self._is_online(game.player_id),
            "start_deadline": None if deadline is None else iso_time(deadline),
        }

    async def _publish_progress(self, live: LiveMatch, game: LiveGame) -> None:
        await self._pubsub.publish(channels.match(live.match_id), {
            "type": "progress", "match_id": live.match_id,
            "progress": self.progress(game, live),
        })

    def _snapshot(self, live: LiveMatch, game: LiveGame, *, role: str) -> Payload:
        others = [g for g in live.games if g is not game]
        now = self._clock()
        return {
            "type": "snapshot", "match_id": live.match_id, "player_id": game.player_id,
            "role": role, "rules": live.rules.to_json(),
            "view": game_view(game.game.state, game.views), "score": game.game.points,
            "seq": game.seq, "status": game.status,
            "time_limit_ms": round(game.time_limit_s * 1000),
            "time_left_ms": game.time_left_ms(now),
            "opponent": self.progress(others[0], live) if others else None,
        }

    def _ack(
        self, live: LiveMatch, game: LiveGame, seq: int, delta: int,
        events: list[Payload], now: float,
    ) -> Payload:
        ack = {
            "type": "ack", "match_id": live.match_id, "seq": seq,
            "view": game_view(game.game.state, game.views), "score": game.game.points,
            "delta": delta, "events": events, "status": game.status,
            "time_left_ms": game.time_left_ms(now), "duplicate": False,
        }
        game.last_ack = ack
        return ack

    def _again(self, live: LiveMatch, game: LiveGame, seq: int, now: float) -> Payload:
        if game.last_ack is not None and game.last_ack["seq"] == seq:
            return {**game.last_ack, "duplicate": True}
        # Rebuilt after a restart: the answer is the current state, nothing applied again.
        return {**self._ack(live, game, game.seq, 0, [], now), "duplicate": True}

    def _reject(self, live: LiveMatch, game: LiveGame, seq: int, code: str, message: str
                ) -> Payload:
        return {
            "type": "reject", "match_id": live.match_id, "seq": seq, "code": code,
            "message": message, "view": game_view(game.game.state, game.views),
            "score": game.game.points, "next_seq": game.seq + 1, "status": game.status,
        }
