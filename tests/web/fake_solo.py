"""A stand-in for the solo layer's REST API and WebSocket frames (docs/solo-and-daily.md,
sections 4 and 5), put in front of one page.

Like ``fake.py`` for duels, it plays with the real engine and the real pure solo layer:
``solo_start`` deals the cards of a number, ``rescue_on_line`` and ``auto_complete`` are the
solver's, ``points_breakdown`` the points. What it fakes is storage, other players and time,
so the browser's screens can be tested without the server's solo services; the end-to-end
tests use the real server.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, Literal

import msgspec
from playwright.sync_api import Page, Route, WebSocketRoute

from app.engine.actions import Action, Undo, action_from_json
from app.engine.errors import IllegalAction
from app.engine.solver.advice import hint as engine_hint
from app.engine.view import player_view
from app.rewards.assist import RESCUE_ACTIONS, RESCUE_NODES, auto_complete
from app.rewards.badges import BADGES
from app.rewards.guide import rescue_on_line
from app.rewards.points import points_breakdown, rescue_cost
from app.rewards.solo import SoloOptions, SoloStart, daily_game, solo_start
from app.rooms.frames import played
from app.scoring.play import ScoredGame
from app.services.solo_lifecycle import Position, position_of
from app.services.solo_play import known_way_out
from app.wire.base import Numbered, numbered
from app.wire.game import GameRules
from app.wire.news import BadgeEarned, BadgeGame, EarnedBadge
from app.wire.session import Pong, Welcome
from app.wire.solo import (
    PointsBreakdown,
    SoloAck,
    SoloAssist,
    SoloAssistCounts,
    SoloGameOptions,
    SoloHint,
    SoloOver,
    SoloReject,
    SoloSnapshot,
    SoloStatus,
    SoloStep,
)
from tests.support.frames import checked_json
from tests.web.fake import ME, event_json

TODAY = date(2026, 12, 1)
NOW = "2026-12-01T12:00:00Z"


@dataclass
class Game:
    id: int
    kind: Literal["solo", "daily"]
    start: SoloStart
    game: ScoredGame
    daily_date: date | None = None
    seq: int = 0
    status: SoloStatus = "playing"
    opened_at: float | None = None
    elapsed_ms: int | None = None
    hints: int = 0
    rescues: int = 0
    undos: int = 0
    auto_completed: bool = False
    points: int | None = None
    breakdown: dict[str, Any] | None = None
    by: list[str] = field(default_factory=list)
    way_out: tuple[Position, tuple[Action, ...]] | None = None
    """Where the last rescue stopped and the rest of its winning line (as the server)."""

    @property
    def options(self) -> SoloOptions:
        return self.start.options

    def elapsed_now(self) -> int:
        if self.elapsed_ms is not None:
            return self.elapsed_ms
        return 0 if self.opened_at is None else int((time.monotonic() - self.opened_at) * 1000)

    def rest(self) -> dict[str, Any]:
        over = self.status != "playing"
        return {
            "id": self.id, "player_id": ME["id"], "player_name": ME["name"], "kind": self.kind,
            "number": self.start.number if self.kind == "solo" or over else None,
            "daily_date": self.daily_date.isoformat() if self.daily_date else None,
            "options": self.options.to_json(),
            "rules": {"preset": self.options.preset, "suits": self.options.suits},
            "difficulty": self.start.difficulty, "status": self.status,
            "created_at": NOW, "started_at": NOW if self.opened_at else None,
            "ended_at": NOW if over else None, "actions": self.game.state.actions,
            "undos": self.undos, "hints": self.hints, "rescues": self.rescues,
            "auto_completed": self.auto_completed, "score": self.game.points,
            "elapsed_ms": self.elapsed_ms if over else None, "points": self.points,
            "points_breakdown": self.breakdown,
            "source_deal": self.start.source if over else None,
            "assisted": self.assisted, "assists": self.assists(), "assist_log": None,
        }

    @property
    def assisted(self) -> bool:
        return bool(self.hints or self.rescues)

    def assists(self) -> dict[str, int]:
        return {"hints": self.hints, "rescues": self.rescues, "undo_to_winnable": 0,
                "auto_complete": int(self.auto_completed)}


def refusal(message: str, code: str) -> IllegalAction:
    error = IllegalAction(message)
    error.code = code
    return error


def board_rows(count: int, *, key: str) -> list[dict[str, Any]]:
    """``count`` other players for a leaderboard, best first."""
    rows = []
    for i in range(count):
        name = f"player{i + 1:02d}"
        rows.append({"rank": i + 1, "player_id": 100 + i, "name": name,
                     "points": 9000 - 97 * i, "wins": 3 + i % 5,
                     "current": 40 - i // 2, "best": 45 - i // 3, "last_won": "2026-11-30",
                     "rating": 1900 - 11.5 * i, "rd": 60.0, "band": "advanced", "games": 20 + i,
                     "elapsed_ms": 250_000 + 9_000 * i, "actions": 180 + i, "rescues": i % 3,
                     "ended_at": NOW})
    return [{k: row[k] for k in ("rank", "player_id", "name", *key.split())} for row in rows]


class FakeSoloServer:
    """Solo and daily games of one player (``ME``), the daily board with others on it,
    leaderboards of ``board_size`` players and the badge table."""

    def __init__(self, *, board_size: int = 45, daily_others: int = 3) -> None:
        self.games: dict[int, Game] = {}
        self.next_id = 40
        self.n = 0
        self.received: list[dict[str, Any]] = []
        self.hints_sent: list[dict[str, Any] | None] = []  # each solo_hint's action
        self.duel_table: int | None = None  # my daily-duel table, once taken
        self.sockets: list[WebSocketRoute] = []
        self.badges: list[dict[str, Any]] = []
        self.board_size = board_size
        self.daily_rows = board_rows(daily_others, key="elapsed_ms actions points rescues ended_at")
        if self.daily_rows:  # the last one won with hints: listed after, marked, no rank
            self.daily_rows[-1] = {**self.daily_rows[-1], "rank": None, "assisted": True,
                                   "elapsed_ms": 61_000}
        self.queries: list[str] = []
        # The solver made to say "no way out" (a provably lost position is slow to find).
        self.lost = False
        # Solo starts held unanswered until release(): the solver at work on a slow deal.
        self.hold_starts = False
        self.rescue_steps = 5  # the actions a rescue plays (the solver's line cut there)
        # Hints say "no win from here — undo to move N" with this N (None: real hints).
        self.no_win_from: int | None = None
        # Searches (hint, rescue, undo-to-winnable) held until a solo_cancel answers them.
        self.hold_searches = False
        self.searching: list[dict[str, Any]] = []
        self.held: list[Route] = []
        # Actions held unanswered until release_acts(): an ack still on its way.
        self.hold_acts = False
        self.held_acts: list[tuple[Game, dict[str, Any]]] = []

    # ---- wiring ---------------------------------------------------------------------
    def install(self, page: Page) -> None:
        page.add_init_script("localStorage.setItem('spider.token', 'token-alice')")
        page.route("**/api/**", self.rest)
        page.route_web_socket("**/ws**", self.connect)

    def connect(self, ws: WebSocketRoute) -> None:
        self.sockets.append(ws)
        ws.on_message(lambda message: self.receive(ws, message))

    @property
    def socket(self) -> WebSocketRoute:
        return self.sockets[-1]

    def push(self, frame: Numbered) -> None:
        self.n += 1
        self.socket.send(checked_json(numbered(frame, self.n)))

    # ---- REST -----------------------------------------------------------------------
    def rest(self, route: Route) -> None:
        url = route.request.url.split("/api", 1)[1]
        path, _, query = url.partition("?")
        self.queries.append(url)
        params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
        method = route.request.method
        if self.hold_starts and method == "POST" and path == "/solo/games":
            self.held.append(route)
            return
        status, body = self.answer(method, path, params, route.request.post_data_json
                                   if method == "POST" and route.request.post_data else None)
        # json=None would send no body at all: a JSON null must be spelled out.
        route.fulfill(status=status, body=json.dumps(body), content_type="application/json")

    def release(self) -> None:
        """Answer the held solo starts."""
        self.hold_starts = False
        while self.held:
            self.rest(self.held.pop(0))

    def answer(self, method: str, path: str, params: dict[str, str],
               body: Any) -> tuple[int, Any]:
        current = self.current()
        if path == "/players/me":
            return 200, ME
        if path == "/solo/games" and method == "POST":
            return 201, self.create(body)
        if path == "/solo/games/current":
            return 200, current.rest() if current else None
        found = re.fullmatch(r"/solo/games/(\d+)(/abandon)?", path)
        if found:
            game = self.games.get(int(found[1]))
            if game is None:
                return self.problem(404, "no_such_game")
            if found[2]:
                self.end(game, "abandoned")
            return 200, game.rest()
        if path == f"/players/{ME['id']}/solo/games":
            mine = [g for g in reversed(self.games.values())
                    if params.get("kind", g.kind) == g.kind
                    and params.get("status", g.status) == g.status]
            return 200, self.page([g.rest() for g in mine], params)
        if path == "/daily":
            return 200, self.daily()
        if path == "/daily/duel" and method == "POST":
            created = self.duel_table is None
            self.duel_table = 77
            return (201 if created else 200), {"id": 77, "daily_date": TODAY.isoformat()}
        if path == "/daily/start" and method == "POST":
            return self.start_daily()
        found = re.fullmatch(r"/daily/([\d-]+)/board", path)
        if found:
            return self.daily_board(found[1], params)
        if path == "/leaderboards/solo":
            return 200, self.page(board_rows(self.board_size, key="points wins"), params)
        if path == "/leaderboards/daily-streaks":
            return 200, self.page(board_rows(self.board_size, key="current best last_won"), params)
        if path == "/leaderboard":
            return 200, self.page(board_rows(self.board_size, key="rating rd band games"), params)
        if path == "/badges":
            return 200, [{"code": b.code, "title": b.title, "description": b.description}
                         for b in BADGES]
        if path == f"/players/{ME['id']}/badges":
            return 200, self.badges
        if path.startswith("/players/by-name/"):
            return 200, self.player()
        if path in ("/tables", "/tables/mine", "/me/invites", "/me/friends"):
            return 200, {"items": [], "total": 0, "page": 1, "page_size": 20}
        return self.problem(404, "not_found")

    @staticmethod
    def problem(status: int, code: str) -> tuple[int, Any]:
        return status, {"type": "about:blank", "title": code, "status": status, "code": code,
                        "detail": code}

    @staticmethod
    def page(rows: list[dict[str, Any]], params: dict[str, str]) -> dict[str, Any]:
        page, size = int(params.get("page", 1)), int(params.get("page_size", 20))
        return {"items": rows[(page - 1) * size: page * size], "total": len(rows),
                "page": page, "page_size": size}

    def current(self) -> Game | None:
        return next((g for g in self.games.values()
                     if g.kind == "solo" and g.status == "playing"), None)

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        abandoned = self.current()
        if abandoned:
            self.end(abandoned, "abandoned")
        options = SoloOptions(**body["options"])
        start = solo_start(body.get("number", 424242), options)
        game = self.add("solo", start)
        return {"game": game.rest(), "abandoned_game_id": abandoned.id if abandoned else None}

    def add(self, kind: Literal["solo", "daily"], start: SoloStart,
            day: date | None = None) -> Game:
        self.next_id += 1
        game = Game(self.next_id, kind, start, ScoredGame.start(start.state), daily_date=day)
        self.games[game.id] = game
        return game

    def my_daily(self) -> Game | None:
        return next((g for g in self.games.values()
                     if g.kind == "daily" and g.daily_date == TODAY), None)

    def daily(self) -> dict[str, Any]:
        mine = self.my_daily()
        won = sum(1 for g in [mine] if g and g.status == "won")
        return {"day": TODAY.isoformat(), "suits": 2, "rules": {"preset": "classic", "suits": 2},
                "difficulty": "medium", "my_game": mine.rest() if mine else None,
                "board_visible": bool(mine and mine.status != "playing"),
                "players": len(self.daily_rows) + (1 if mine and mine.status != "playing" else 0),
                "playing": 1 if mine and mine.status == "playing" else 0,
                "winners": len(self.daily_rows) + won,
                "streak": {"current": 4 + won, "best": 9, "last_won": TODAY.isoformat()
                           if won else "2026-11-30"},
                "duel_table_id": self.duel_table,
                "my_rank": 1 + sum(1 for r in self.daily_rows  # assisted wins have no rank
                                   if not r.get("assisted") and (r["elapsed_ms"], r["actions"])
                                   < (mine.elapsed_ms, mine.game.state.actions))
                if mine and mine.status == "won" and mine.elapsed_ms is not None else None}

    def start_daily(self) -> tuple[int, Any]:
        mine = self.my_daily()
        if mine and mine.status != "playing":
            return self.problem(409, "daily_already_played")
        if mine:
            return 200, mine.rest()
        return 201, self.add("daily", daily_game(TODAY), TODAY).rest()

    def daily_board(self, day: str, params: dict[str, str]) -> tuple[int, Any]:
        mine = self.my_daily()
        if day == TODAY.isoformat() and not (mine and mine.status != "playing"):
            return self.problem(403, "daily_not_finished")
        rows = list(self.daily_rows)
        if day == TODAY.isoformat() and mine and mine.status == "won":
            rows.append({"rank": 0, "player_id": ME["id"], "name": ME["name"],
                         "elapsed_ms": mine.elapsed_ms, "actions": mine.game.state.actions,
                         "points": mine.points, "rescues": mine.rescues, "ended_at": NOW,
                         "assisted": mine.assisted})
            rows.sort(key=lambda r: (bool(r.get("assisted")), r["elapsed_ms"], r["actions"]))
            rows = [{**r, "rank": None if r.get("assisted") else i + 1}
                    for i, r in enumerate(rows)]
        return 200, self.page(rows, params)

    def player(self) -> dict[str, Any]:
        won = [g for g in self.games.values() if g.status == "won"]

        def per_suit(suits: int) -> dict[str, Any]:
            mine = [g for g in won if g.options.suits == suits]
            return {"suits": suits, "games": sum(1 for g in self.games.values()
                                                 if g.options.suits == suits),
                    "wins": len(mine),
                    "best_time_ms": min((g.elapsed_ms or 0 for g in mine), default=None),
                    "best_points": max((g.points or 0 for g in mine), default=None),
                    "points": sum(g.points or 0 for g in mine),
                    "points_week": sum(g.points or 0 for g in mine)}
        return {**ME, "since": "2026-11-01T10:00:00Z", "games_played": 12, "won": 7, "lost": 5,
                "drawn": 0, "streak": 2,
                "ratings": [{"suits": 1, "rating": 1623.4, "rd": 80.0, "band": "advanced",
                             "games": 12}],
                "solo": [per_suit(s) for s in (1, 2, 4)],
                "daily": {"played": 5, "won": 4, "current_streak": 4, "best_streak": 9,
                          "last_won": "2026-11-30"},
                "badges": len(self.badges)}

    # ---- WebSocket ------------------------------------------------------------------
    def receive(self, ws: WebSocketRoute, text: str | bytes) -> None:
        message = json.loads(text)
        self.received.append(message)
        kind = message["type"]
        if kind == "hello":
            ws.send(checked_json(Welcome(v=1, player_id=ME["id"], stream="s-solo",
                                         last_event=self.n, resumed=False)))
            return
        if kind == "ping":
            ws.send(checked_json(Pong()))
            return
        game = self.games.get(message.get("game_id", -1))
        if game is None:
            return
        if kind == "solo_open":
            game.opened_at = game.opened_at or time.monotonic()
            self.push(self.snapshot(game))
        elif kind == "solo_action" and self.hold_acts:
            self.held_acts.append((game, message))
        elif kind == "solo_action":
            self.act(game, message)
        elif kind == "solo_cancel":
            for held in self.searching:
                self.cancelled(ws, game, held)
            self.searching.clear()
        elif kind in ("solo_hint", "solo_rescue", "solo_undo_to_winnable") and self.hold_searches:
            self.searching.append(message)
        elif kind == "solo_hint":
            game.hints += 1
            if self.no_win_from is not None:
                ws.send(checked_json(SoloHint(
                    game_id=game.id, action=None,
                    reason=f"no win from here: undo to move {self.no_win_from}",
                    verdict="no_win", undo_to_move=self.no_win_from,
                    undos=game.seq - self.no_win_from)))
                return
            advice = engine_hint(game.game.state)
            self.hints_sent.append(advice.action.to_json() if advice.action else None)
            said = None if advice.action is None else played(advice.action)
            ws.send(checked_json(SoloHint(game_id=game.id, reason=advice.reason, action=said,
                                          verdict="line", undos=None, undo_to_move=None)))
        elif kind == "solo_undo_to_winnable":
            self.undo_to_winnable(game, message)
        elif kind == "solo_rescue":
            self.rescue(game)
        elif kind == "solo_auto_complete":
            self.finish(game)

    def snapshot(self, game: Game) -> SoloSnapshot:
        return SoloSnapshot(
            game_id=game.id, kind=game.kind,
            number=game.start.number if game.kind == "solo" else None,
            daily_date=game.daily_date.isoformat() if game.daily_date else None,
            options=SoloGameOptions(**game.options.to_json()),
            rules=GameRules(game.options.preset, game.options.suits),
            difficulty=game.start.difficulty, view=player_view(game.game.state),
            score=game.game.points, seq=game.seq, status=game.status,
            elapsed_ms=game.elapsed_now(), hints=game.hints, rescues=game.rescues,
            auto_complete=self.offered(game), points=game.points)

    @staticmethod
    def offered(game: Game) -> bool:
        return game.status == "playing" and auto_complete(game.game.state).ready

    def play(self, game: Game, action: Any,
             by: Literal["rescue", "auto_complete", "player"]) -> SoloStep:
        game.game, events = game.game.play(action)
        game.seq += 1
        game.by.append(by)
        if action.to_json()["op"] == "undo":
            game.undos += 1
        return SoloStep(seq=game.seq, action=played(action), by=by,
                        events=[event_json(e) for e in events])

    def release_acts(self) -> None:
        self.hold_acts = False
        for game, message in self.held_acts:
            self.act(game, message)
        self.held_acts.clear()

    def act(self, game: Game, message: dict[str, Any]) -> None:
        try:
            if game.status != "playing":
                raise refusal("the game is over", "game_over")
            if message["seq"] != game.seq + 1:
                raise refusal("out of turn", "bad_seq")
            before = game.game.points
            step = self.play(game, action_from_json(message["action"]), "player")
        except IllegalAction as error:
            self.push(SoloReject(game_id=game.id, seq=message["seq"], code=error.code,
                                 message=error.message, view=player_view(game.game.state),
                                 score=game.game.points, next_seq=game.seq + 1,
                                 status=game.status))
            return
        self.won_check(game)
        self.push(SoloAck(game_id=game.id, seq=message["seq"],
                          view=player_view(game.game.state), score=game.game.points,
                          delta=game.game.points - before, events=step.events,
                          status=game.status, elapsed_ms=game.elapsed_now(),
                          auto_complete=self.offered(game), duplicate=False))
        self.over_check(game)

    def rescue(self, game: Game) -> None:
        if self.offered(game):  # as the server: no paid rescue where the free finish is
            self.push(SoloReject(game_id=game.id, seq=game.seq + 1,
                                 code="auto_complete_ready", message="use the auto-complete",
                                 view=player_view(game.game.state), score=game.game.points,
                                 next_seq=game.seq + 1, status=game.status))
            return
        # As the server (app/services/solo_play.py, known_way_out): asked again where the
        # last rescue stopped, the rest of its verified line, without a new search (each
        # search took ~3 s here, most of a test that rescues to the end).
        # On the solvable deal's own win, the rest of it (guide.rescue_on_line).
        deal_of = ((game.start.number, game.options.suits) if game.options.solvable_only
                   else None)
        found = known_way_out(game, game.game.state) or rescue_on_line(
            game.game.state, deal_of, nodes=RESCUE_NODES)
        if self.lost:
            found = replace(found, status="no_way_out", actions=(), message="no way out")
        steps = [self.play(game, a, "rescue") for a in found.actions[:self.rescue_steps]]
        if steps:
            game.rescues += 1
        if found.status == "way_out":
            game.way_out = (position_of(game.game.state), found.line[len(steps):])
        self.won_check(game)
        self.push(SoloAssist(game_id=game.id, kind="rescue",
                             verdict=found.status, message=found.message, steps=steps,
                             view=player_view(game.game.state), score=game.game.points,
                             seq=game.seq, status=game.status, elapsed_ms=game.elapsed_now(),
                             rescues=game.rescues,
                             points_cost=rescue_cost(game.options) if steps else 0,
                             auto_complete=self.offered(game), duplicate=False))
        self.over_check(game)

    def rescue_quietly(self, leave: int) -> None:
        """A test's shortcut to a game's end: the rest of the last rescue's line played for
        the player, 5 actions a rescue, without telling the page, up to ``leave`` actions
        before the auto-complete would be offered (the page draws a rescue's actions one
        by one, ~0.2 s each on a loaded machine: 20 rescues were most of a test)."""
        game = next(iter(self.games.values()))
        assert game.way_out is not None and game.way_out[0] == position_of(game.game.state)
        line = game.way_out[1]
        probe, offer_at = game.game, len(line)
        for index, action in enumerate(line):
            if auto_complete(probe.state).ready:
                offer_at = index
                break
            probe, _ = probe.play(action)
        played = line[:max(0, offer_at - leave)]
        for action in played:
            self.play(game, action, "rescue")
        game.rescues += -(-len(played) // RESCUE_ACTIONS)
        game.way_out = (position_of(game.game.state), line[len(played):])

    def cancelled(self, ws: WebSocketRoute, game: Game, held: dict[str, Any]) -> None:
        """A held search stopped by solo_cancel: its command answers "cancelled"."""
        if held["type"] == "solo_hint":
            ws.send(checked_json(SoloHint(game_id=game.id, action=None, reason="cancelled",
                                          verdict="cancelled", undos=None, undo_to_move=None)))
            return
        kind: Literal["rescue", "undo_to_winnable"] = (
            "rescue" if held["type"] == "solo_rescue" else "undo_to_winnable")
        self.push(self.assist(game, kind, "cancelled", "cancelled", []))

    def assist(self, game: Game, kind: Literal["rescue", "undo_to_winnable"],
               verdict: Literal["way_out", "unknown", "cancelled"], message: str,
               steps: list[SoloStep]) -> SoloAssist:
        return SoloAssist(game_id=game.id, kind=kind, verdict=verdict,
                          message=message, steps=steps, view=player_view(game.game.state),
                          score=game.game.points, seq=game.seq, status=game.status,
                          elapsed_ms=game.elapsed_now(), rescues=game.rescues, points_cost=0,
                          auto_complete=self.offered(game), duplicate=False)

    def undo_to_winnable(self, game: Game, message: dict[str, Any]) -> None:
        """As the server: the undos back to move ``no_win_from`` (the player's own)."""
        target = self.no_win_from or 0
        undos = max(0, game.seq - target) if message["seq"] == game.seq + 1 else 0
        steps = [self.play(game, Undo(), "player") for _ in range(undos)]
        self.no_win_from = None
        self.push(self.assist(game, "undo_to_winnable", "way_out" if steps else "unknown",
                              f"back to move {target}: a win from here", steps))

    def finish(self, game: Game) -> None:
        plan = auto_complete(game.game.state)
        if not plan.ready:
            self.push(SoloReject(game_id=game.id, seq=game.seq + 1,
                                 code="auto_complete_unavailable", message=plan.message,
                                 view=player_view(game.game.state), score=game.game.points,
                                 next_seq=game.seq + 1, status=game.status))
            return
        steps = [self.play(game, a, "auto_complete") for a in plan.actions]
        game.auto_completed = True
        self.won_check(game)
        self.push(SoloAssist(game_id=game.id, kind="auto_complete",
                             verdict="ready", status=game.status, message=plan.message,
                             steps=steps,
                             view=player_view(game.game.state), score=game.game.points,
                             seq=game.seq, elapsed_ms=game.elapsed_now(), rescues=game.rescues,
                             points_cost=0, auto_complete=False, duplicate=False))
        self.over_check(game)

    def won_check(self, game: Game) -> None:
        if game.game.state.won and game.status == "playing":
            game.status = "won"
            game.elapsed_ms = game.elapsed_now()
            breakdown = points_breakdown(options=game.options, elapsed_ms=game.elapsed_ms,
                                         actions=game.game.state.actions, rescues=game.rescues)
            game.breakdown = breakdown.to_json()
            game.points = breakdown.total

    def over_check(self, game: Game) -> None:
        if game.status == "playing":
            return
        self.push(SoloOver(
            game_id=game.id, status=game.status,
            elapsed_ms=game.elapsed_ms, actions=game.game.state.actions,
            points=game.points,
            points_breakdown=PointsBreakdown(**game.breakdown) if game.breakdown else None,
            number=game.start.number, source_deal=game.start.source,
            daily_date=game.daily_date.isoformat() if game.daily_date else None,
            assisted=game.assisted, assists=SoloAssistCounts(**game.assists())))
        if game.status == "won" and not any(b["code"] == "first_win" for b in self.badges):
            self.award("first_win", game)

    def award(self, code: str, game: Game) -> None:
        badge = next(b for b in BADGES if b.code == code)
        earned = EarnedBadge(code=code, title=badge.title, description=badge.description,
                             earned_at=datetime.now(UTC).isoformat())
        by = BadgeGame(kind=game.kind, id=game.id)
        # The REST list of my badges: each badge with the game that earned it.
        self.badges.append({**msgspec.structs.asdict(earned),
                            "game": msgspec.structs.asdict(by)})
        self.push(BadgeEarned(badge=earned, game=by))

    def end(self, game: Game, status: SoloStatus) -> None:
        if game.status == "playing":
            game.status = status
            game.elapsed_ms = game.elapsed_now()
