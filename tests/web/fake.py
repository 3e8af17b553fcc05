"""A stand-in for the REST API and the WebSocket protocol, put in front of one page.

It plays the documented protocol (docs/protocol.md, version 1) with the real engine and
scoring, so the client's board, keyboard, drag, rejection and reconnect handling can be
tested against genuine rules without a database. The end-to-end tests use the real server.
"""

from __future__ import annotations

import json
import time
from typing import Any

import msgspec
from playwright.sync_api import Page, Route, WebSocketRoute

from app.engine.actions import Deal, action_from_json
from app.engine.deal import deal
from app.engine.errors import IllegalAction
from app.engine.layout import state_from_layout
from app.engine.rules import Rules, preset
from app.engine.solver.advice import hint as engine_hint
from app.engine.state import GameState
from app.engine.view import player_view
from app.rooms.frames import event_json as event_json  # the server's own (fake_solo too)
from app.rooms.frames import game_rules, played
from app.scoring.play import ScoredGame
from app.wire.base import Numbered, numbered
from app.wire.duel import (
    Ack,
    AckStatus,
    DealPlay,
    EndReason,
    GameOver,
    Hint,
    MatchResult,
    PlayerResult,
    Progress,
    ProgressEvent,
    Reject,
    RevealedDeal,
    Snapshot,
    WatchEvent,
)
from app.wire.news import LobbyTable
from app.wire.session import Error, Pong, Welcome
from tests.support.frames import checked_json

REVEALED_DEAL = RevealedDeal(difficulty=None, number=1234, generator=1, play=DealPlay(
    number=87_531_207_400_219, suits=2, solvable_only=True))
"""A match's deal as its result reveals it."""


def lobby_table(rest: dict[str, Any]) -> LobbyTable:
    """A table of the REST answers of a stand-in server as a ``lobby`` frame says it: all
    of its fields, those a fake leaves out as a new table has them."""
    return msgspec.convert({"difficulty": "any", "daily_date": None, "quick": False,
                            "created_at": "2026-11-29T10:00:00Z", "expires_at": None, **rest},
                           LobbyTable)


ME: dict[str, Any] = {"id": 1, "name": "alice"}
OPPONENT: dict[str, Any] = {"id": 2, "name": "bob"}
MATCH_ID = 11
TABLE_ID = 7

# Six runs already removed; a short duel game of one suit is left (26 cards, one deal).
NEAR_FINISHED: dict[str, Any] = {
    "tableau": [
        {"down": [], "up": ["Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"]},
        {"down": [], "up": ["6s", "5s", "4s"]},
        {"down": ["3s"], "up": []},
        {"down": [], "up": ["2s"]},
        {"down": [], "up": ["As"]},
        {"down": [], "up": ["Ks"]},
        {"down": [], "up": ["2s"]},
        {"down": [], "up": ["As"]},
        {"down": [], "up": []},
        {"down": [], "up": []},
    ],
    "stock": ["Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s"],
    "removed": ["s"] * 6,
}


def midgame(number: int, *, suits: int = 2, actions: int = 45) -> GameState:
    """A real generator deal (duel preset), played ``actions`` steps by the engine's own hint
    (dealing when it has nothing better): a position a player meets mid-game."""
    game = ScoredGame.start(deal(number, preset("duel", suits)))
    for _ in range(actions):
        advice = engine_hint(game.state).action
        if advice is None or advice.to_json()["op"] == "undo":
            if not game.state.deals_left:
                break
            advice = Deal()
        game, _ = game.play(advice)
    return game.state


class FakeServer:
    def __init__(self, layout: dict[str, Any] | None = None, time_limit_ms: int = 600_000,
                 *, start: GameState | None = None):
        self.rules: Rules = start.rules if start else preset("duel", 1)
        if start is None:
            start = state_from_layout(self.rules, layout or NEAR_FINISHED)
        self.game = ScoredGame.start(start)
        self.seq = 0
        self.status: AckStatus = "playing"
        self.time_limit_ms = time_limit_ms
        self.n = 0
        self.log: dict[int, Numbered] = {}  # the events sent, by their number
        self.sockets: list[WebSocketRoute] = []
        self.received: list[dict[str, Any]] = []
        # Actions held unanswered until release_acts(): an ack still on its way.
        self.hold_acts = False
        self.held_acts: list[tuple[WebSocketRoute, dict[str, Any]]] = []
        self.hold_hints = False  # hints held until release_hints(), likewise
        # A stalled network: what comes in is handled, nothing goes out (events stay in
        # the log, replayed to a connection that resumes the stream).
        self.muted = False
        self.held_hints: list[WebSocketRoute] = []
        self.refuse_connections = False
        self.reject_next: str | None = None
        self.opponent_game = ScoredGame.start(start)
        self.stream = "s-1"
        self.tables: list[dict[str, Any]] = []
        self.table_changes: dict[str, Any] = {}  # fields of the table's REST answer changed
        self.opponent_changes: dict[str, Any] = {}  # and of the opponent's progress
        self.seats = [
            {"seat": 0, "player_id": ME["id"], "name": ME["name"], "wants_new_game": False},
            {"seat": 1, "player_id": OPPONENT["id"], "name": OPPONENT["name"],
             "wants_new_game": False},
        ]

    # ---- wiring ---------------------------------------------------------------------
    def install(self, page: Page) -> None:
        page.add_init_script("localStorage.setItem('spider.token', 'token-alice')")
        page.route("**/api/**", self.rest)
        page.route_web_socket("**/ws**", self.connect)

    def rest(self, route: Route) -> None:
        path = route.request.url.split("/api", 1)[1].split("?")[0]
        answers: dict[str, Any] = {
            "/players/me": ME,
            f"/tables/{TABLE_ID}": self.table(),
            f"/matches/{MATCH_ID}": {
                "match_id": MATCH_ID, "table_id": TABLE_ID, "status": "playing",
                "winner_id": None,
                "games": [
                    {"player_id": p["player_id"], "status": "playing", "score": 0,
                     "time_used_ms": 0, "started_at": "2026-11-29T10:00:00Z",
                     "rating_before": None, "rating_after": None}
                    for p in self.seats
                ],
            },
            "/tables": {"items": self.tables, "total": len(self.tables), "page": 1,
                        "page_size": 20},
            "/me/invites": {"items": [], "total": 0, "page": 1, "page_size": 100},
            "/me/friends": {"items": [{**OPPONENT, "since": "2026-11-29T10:00:00Z",
                                       "online": True}],
                            "total": 1, "page": 1, "page_size": 100},
        }
        if path in answers:
            route.fulfill(json=answers[path])
        else:
            route.fulfill(status=404, json={"title": "Not Found", "status": 404, "detail": path})

    def table(self) -> dict[str, Any]:
        """My table, as the REST API answers it."""
        return {
            "id": TABLE_ID, "owner_id": ME["id"], "owner_name": ME["name"], "preset": "duel",
            "suits": self.rules.suits, "time_limit_seconds": 600, "level": "any",
            "public": False, "rated": True, "status": "full", "match_id": MATCH_ID,
            "match_status": "playing",
            "seats": self.seats, **self.table_changes,
        }

    def connect(self, ws: WebSocketRoute) -> None:
        if self.refuse_connections:
            ws.close()
            return
        self.sockets.append(ws)
        ws.on_message(lambda message: self.receive(ws, message))

    @property
    def socket(self) -> WebSocketRoute:
        return self.sockets[-1]

    def cut(self) -> None:
        """Drop the connection the way a network failure would."""
        self.socket.close()

    # ---- protocol -------------------------------------------------------------------
    def receive(self, ws: WebSocketRoute, text: str | bytes) -> None:
        message = json.loads(text)
        self.received.append(message)
        kind = message["type"]
        if kind == "hello":
            self.hello(ws, message)
        elif kind == "open_game":
            self.push(ws, self.snapshot())
            self.push(ws, ProgressEvent(match_id=MATCH_ID, progress=self.progress()))
        elif kind == "action" and self.hold_acts:
            self.held_acts.append((ws, message))
        elif kind == "action":
            self.act(ws, message)
        elif kind == "finish":
            self.finish(ws, message)
        elif kind == "hint" and self.hold_hints:
            self.held_hints.append(ws)
        elif kind == "hint":
            self.hint(ws)
        elif kind == "spectate":
            self.push(ws, self.opponent_snapshot())
        elif kind == "ping" and not self.muted:
            ws.send(checked_json(Pong()))

    def hello(self, ws: WebSocketRoute, message: dict[str, Any]) -> None:
        resumed = message.get("stream") == self.stream and message.get("last_event") is not None
        ws.send(checked_json(Welcome(v=1, player_id=ME["id"], stream=self.stream,
                                     last_event=self.n, resumed=resumed)))
        if resumed:
            for n, event in self.log.items():
                if n > message["last_event"]:
                    ws.send(checked_json(event))

    def push(self, ws: WebSocketRoute | None, frame: Numbered) -> None:
        """An event of the stream: numbered, logged for a resume, sent unless muted."""
        self.n += 1
        self.log[self.n] = event = numbered(frame, self.n)
        if ws is not None and not self.muted:
            ws.send(checked_json(event))

    def opponent(self, score: int = 0, runs: int = 6) -> dict[str, Any]:
        """The opponent's progress as a dict: tests make their own progress frames from it
        with some fields changed. ``progress`` is the same as the part a frame carries."""
        return {"player_id": OPPONENT["id"], "score": score, "actions": 0, "runs": runs,
                "time_left_ms": self.time_limit_ms, "at_ms": round(time.time() * 1000),
                "status": "playing", "online": True, "start_deadline": None,
                **self.opponent_changes}

    def progress(self, score: int = 0, runs: int = 6) -> Progress:
        return Progress(**self.opponent(score, runs))

    def snapshot(self) -> Snapshot:
        return Snapshot(
            match_id=MATCH_ID, player_id=ME["id"], role="player",
            rules=game_rules(self.rules), view=player_view(self.game.state),
            score=self.game.points, seq=self.seq, status=self.status,
            time_limit_ms=self.time_limit_ms, time_left_ms=self.time_limit_ms,
            opponent=self.progress(),
        )

    def release_hints(self) -> None:
        self.hold_hints = False
        for ws in self.held_hints:
            self.hint(ws)
        self.held_hints.clear()

    def release_acts(self) -> None:
        self.hold_acts = False
        for ws, message in self.held_acts:
            self.act(ws, message)
        self.held_acts.clear()

    def act(self, ws: WebSocketRoute, message: dict[str, Any]) -> None:
        seq = message["seq"]
        try:
            if seq != self.seq + 1:
                raise IllegalAction(f"expected seq {self.seq + 1}")
            if self.reject_next:
                code, self.reject_next = self.reject_next, None
                error = IllegalAction("refused by the server")
                error.code = code
                raise error
            action = action_from_json(message["action"])
            before = self.game.points
            self.game, events = self.game.play(action)
        except IllegalAction as error:
            self.push(ws, Reject(
                match_id=MATCH_ID, seq=seq, code=error.code, message=error.message,
                view=player_view(self.game.state), score=self.game.points,
                next_seq=self.seq + 1, status=self.status,
            ))
            return
        self.seq = seq
        if self.game.state.status == "won":
            self.status = "won"
        self.push(ws, Ack(
            match_id=MATCH_ID, seq=seq, view=player_view(self.game.state),
            score=self.game.points, delta=self.game.points - before,
            events=[event_json(e) for e in events], status=self.status,
            time_left_ms=self.time_limit_ms, duplicate=False,
        ))

    def hint(self, ws: WebSocketRoute) -> None:
        """Unnumbered, like the real server's: the engine's advice on what I can see."""
        if self.status != "playing":
            ws.send(checked_json(Error(code="game_over", message="over")))
            return
        advice = engine_hint(self.game.state)
        ws.send(checked_json(Hint(
            match_id=MATCH_ID, reason=advice.reason,
            action=None if advice.action is None else played(advice.action),
        )))

    FINISHED_AFTER_MS = 65_000

    def finish(self, ws: WebSocketRoute, message: dict[str, Any]) -> None:
        """Finished 65 s into the game: the ack and game_over carry the final clock."""
        self.seq = message["seq"]
        self.status = "finished"
        self.push(ws, Ack(
            match_id=MATCH_ID, seq=self.seq,
            view=player_view(self.game.state), score=self.game.points, delta=0,
            events=[], status="finished",
            time_left_ms=self.time_limit_ms - self.FINISHED_AFTER_MS, duplicate=False,
        ))
        self.push(ws, GameOver(match_id=MATCH_ID, player_id=ME["id"], reason="finished",
                               score=self.game.points, elapsed_ms=self.FINISHED_AFTER_MS))

    def opponent_snapshot(self) -> Snapshot:
        return Snapshot(
            match_id=MATCH_ID, player_id=OPPONENT["id"],
            role="spectator", rules=game_rules(self.rules),
            view=player_view(self.opponent_game.state), score=self.opponent_game.points,
            seq=0, status="playing", time_limit_ms=self.time_limit_ms,
            time_left_ms=self.time_limit_ms - 5000, opponent=None,
        )

    def opponent_plays(self, action: dict[str, Any]) -> None:
        """The opponent acts; I see it live only if I watch (my game is over)."""
        self.opponent_game, events = self.opponent_game.play(action_from_json(action))
        self.push(self.socket, WatchEvent(
            match_id=MATCH_ID, player_id=OPPONENT["id"], seq=1,
            view=player_view(self.opponent_game.state), score=self.opponent_game.points,
            events=[event_json(e) for e in events], status="playing",
        ))

    def opponent_game_over(self, *, reason: EndReason = "won", score: int = 120) -> None:
        """The opponent's game ends while mine goes on (their score, not their board)."""
        self.push(self.socket, GameOver(match_id=MATCH_ID, player_id=OPPONENT["id"],
                                        reason=reason, score=score, elapsed_ms=140_000))

    def match_over(self, *, my_score: int, their_score: int,
                   their_elapsed_ms: int = 140_000) -> None:
        # A tie goes to the faster game: mine (65 s against 140 s).
        winner = ME["id"] if my_score >= their_score else OPPONENT["id"]
        self.push(self.socket, MatchResult(
            match_id=MATCH_ID, winner_id=winner,
            deal=REVEALED_DEAL,
            results=[
                PlayerResult(player_id=ME["id"], name=ME["name"], score=my_score,
                             elapsed_ms=65_000, reason="finished", rating_before=1500.0,
                             rating_after=1484.2),
                PlayerResult(player_id=OPPONENT["id"], name=OPPONENT["name"],
                             score=their_score, elapsed_ms=their_elapsed_ms, reason="won",
                             rating_before=1500.0, rating_after=1515.8),
            ],
        ))
