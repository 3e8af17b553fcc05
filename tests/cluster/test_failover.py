"""Live duels through HAProxy on two workers; one worker is SIGKILLed mid-duel.

Everything goes through the balancer (deploy/haproxy.cfg: leastconn, no stickiness), as a
real deployment would: 20 duels (40 players), four of them watched by the player who
finished first, four on a short clock that runs out after the kill. Afterwards: every
client whose worker died reconnected through the balancer and resumed its event stream
on the survivor with no event missed and none twice; no acknowledged
action is missing from the log; the clocks ran on (time-outs at their deadline); the
spectators still saw the games they watch; every match was settled once.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.engine.deal import deal
from app.engine.layout import state_to_layout
from app.engine.rules import preset
from app.services.ratings import MIN_RATED_ACTIONS, MIN_RATED_MS, rated_enough
from bench.bot import choose
from bench.client import DuelClient, Player, seat_pair, signup
from tests.support.cluster import Cluster
from tests.support.duelists import true_positions

DUELS = 20
WATCHED = range(0, 4)  # the second player finishes first, then watches the first
SHORT_CLOCK = range(16, 20)  # both open, play a little, then let the clock run out
SHORT_LIMIT_S = 10
STEPS_BEFORE, STEPS_AFTER = 8, 8
RECONNECT_WITHIN_S = 20.0

Frame = dict[str, Any]


@dataclass
class Seat:
    """One player of one match, over as many connections as the failover takes."""

    player: Player
    match_id: int
    url: str
    rng: random.Random
    client: DuelClient | None = None
    history: list[DuelClient] = field(default_factory=list)
    view: Frame = field(default_factory=dict)
    seq: int = 0
    acked: list[Frame] = field(default_factory=list)
    reconnects: int = 0
    interrupted: int = 0  # requests the worker died under (sent again after reconnecting)
    limit_ms: int = 0
    # The client's monotonic clock around the open and the finish: the server's clock
    # started and stopped somewhere inside each pair.
    open_sent: float = 0.0
    open_answered: float = 0.0
    finish_sent: float = 0.0
    finish_answered: float = 0.0
    watching: int | None = None  # the player whose game this seat watches

    @property
    def connection(self) -> DuelClient:
        assert self.client is not None
        return self.client

    def frames(self) -> list[Frame]:
        return [f for c in [*self.history, self.connection] for f in c.frames]

    async def connect(self) -> None:
        self.client = await DuelClient.open(self.url, self.player)

    async def reconnect(self) -> None:
        """Back through the balancer, resuming the stream where this client left it."""
        old = self.connection
        self.history.append(old)
        deadline = time.monotonic() + RECONNECT_WITHIN_S
        while True:
            try:
                self.client = await DuelClient.open(
                    self.url, self.player, stream=old.welcome["stream"],
                    last_event=old.last_event)
                break
            except (OSError, ConnectionClosed, TimeoutError):
                assert time.monotonic() < deadline, "no worker took the reconnection"
                await asyncio.sleep(0.1)
            except InvalidStatus as refused:
                # The balancer's 502/503 while it learns that a worker died: a browser
                # retries on it as on a dropped connection (web/js/socket.js).
                status = refused.response.status_code
                assert status in (502, 503, 504), refused
                assert time.monotonic() < deadline, "no worker took the reconnection"
                await asyncio.sleep(0.1)
        self.reconnects += 1
        if not self.client.welcome["resumed"] and self.watching is not None:
            await self.watch(self.watching)  # a fresh stream: ask again what it follows

    async def request(self, frame: Frame) -> Frame:
        """Send ``frame``; if the worker dies under it, reconnect and send it again (an
        action already applied is answered as a duplicate)."""
        while True:
            try:
                answer, _ = await self.connection.request(frame)
                return answer
            except (ConnectionError, ConnectionClosed):
                self.interrupted += 1
                await self.reconnect()

    async def open(self) -> Frame:
        sent = time.monotonic()
        snapshot = await self.request({"type": "open_game", "match_id": self.match_id})
        if not self.open_sent:
            self.open_sent, self.open_answered = sent, time.monotonic()
        assert snapshot["type"] == "snapshot", snapshot
        self.view, self.seq = snapshot["view"], snapshot["seq"]
        self.limit_ms = snapshot["time_limit_ms"]
        return snapshot

    async def step(self) -> Frame:
        action = choose(self.view, manual_flip=True, rng=self.rng) or {"op": "undo"}
        answer = await self.request({"type": "action", "match_id": self.match_id,
                                     "seq": self.seq + 1, "action": action})
        if answer["type"] == "ack":
            self.acked.append(answer)
            self.view, self.seq = answer["view"], answer["seq"]
        elif answer["type"] == "reject" and answer.get("view") is not None:
            self.view, self.seq = answer["view"], answer["next_seq"] - 1
        else:
            raise AssertionError(answer)
        return answer

    async def finish(self) -> Frame:
        self.finish_sent = time.monotonic()
        answer = await self.request({"type": "finish", "match_id": self.match_id,
                                     "seq": self.seq + 1})
        assert answer["type"] == "ack" and answer["status"] == "finished", answer
        self.finish_answered = time.monotonic()
        self.acked.append(answer)
        return answer

    async def watch(self, player_id: int) -> None:
        self.watching = player_id
        answer = await self.request({"type": "spectate", "match_id": self.match_id,
                                     "player_id": player_id})
        assert answer["type"] == "snapshot" and answer["role"] == "spectator", answer

    async def wait_for(self, kind: str, timeout: float = 30.0, **fields: Any) -> Frame:
        deadline = time.monotonic() + timeout
        while True:
            for frame in self.frames():
                if frame.get("type") == kind and all(frame.get(k) == v
                                                     for k, v in fields.items()):
                    return frame
            if self.connection.ws.state.name == "CLOSED":
                await self.reconnect()
            assert time.monotonic() < deadline, (kind, fields, [f["type"] for f in self.frames()])
            await asyncio.sleep(0.05)


@dataclass
class Duel:
    index: int
    first: Seat
    second: Seat
    opened_at: float = 0.0

    @property
    def match_id(self) -> int:
        return self.first.match_id


async def seat_duels(cluster: Cluster) -> list[Duel]:
    duels = []
    async with httpx.AsyncClient(base_url=cluster.http, timeout=30) as http:
        for index in range(DUELS):
            ann, bob = await signup(http, f"Ann{index}"), await signup(http, f"Bob{index}")
            match_id = await seat_pair(http, ann, bob, rated=True, suits=1)
            if index in SHORT_CLOCK:
                layout = state_to_layout(deal(7000 + index, preset("duel", 1)))
                placed = await http.put(
                    f"/api/test/matches/{match_id}/layout",
                    headers={"Authorization": f"Bearer {ann.token}"},
                    json={"layout": layout, "time_limit_seconds": SHORT_LIMIT_S})
                assert placed.status_code == 200, placed.text
            rng = random.Random(index)
            duels.append(Duel(index, Seat(ann, match_id, cluster.ws, rng),
                              Seat(bob, match_id, cluster.ws, rng)))
    return duels


async def play(seat: Seat, steps: int) -> None:
    for _ in range(steps):
        await seat.step()
        await asyncio.sleep(seat.rng.uniform(0.01, 0.05))


async def before_the_kill(duel: Duel) -> None:
    await duel.first.open()
    await duel.second.open()
    duel.opened_at = time.monotonic()
    if duel.index in SHORT_CLOCK:
        await asyncio.gather(play(duel.first, 3), play(duel.second, 3))
        return
    if duel.index in WATCHED:
        await play(duel.second, 3)
        await duel.second.finish()
        await duel.second.watch(duel.first.player.id)
    await asyncio.gather(play(duel.first, STEPS_BEFORE),
                         *([] if duel.index in WATCHED else [play(duel.second, STEPS_BEFORE)]))


async def after_the_kill(duel: Duel) -> None:
    if duel.index in SHORT_CLOCK:  # nobody plays on: the clocks run out on the survivor
        for seat in (duel.first, duel.second):
            await seat.wait_for("match_result", timeout=SHORT_LIMIT_S + 20,
                                match_id=duel.match_id)
        return
    seats = [duel.first] if duel.index in WATCHED else [duel.first, duel.second]
    await asyncio.gather(*(play(seat, STEPS_AFTER) for seat in seats))
    for seat in seats:
        await seat.finish()
    for seat in (duel.first, duel.second):
        await seat.wait_for("match_result", match_id=duel.match_id)


async def test_a_worker_killed_mid_duel_behind_the_balancer(
    balanced_pg_cluster: Cluster,
) -> None:
    cluster = balanced_pg_cluster
    duels = await seat_duels(cluster)
    seats = [seat for duel in duels for seat in (duel.first, duel.second)]
    for seat in seats:
        await seat.connect()
    # The balancer spread the players over both workers (leastconn, no stickiness).
    async with httpx.AsyncClient(timeout=10) as http:
        held = [await connections_of(http, server.http) for server in cluster.servers]
    assert all(count >= len(seats) // 4 for count in held), held

    await asyncio.gather(*(before_the_kill(duel) for duel in duels))
    watched_at_kill = {duel.index: duel.first.seq for duel in duels if duel.index in WATCHED}
    # Mid-duel: the players of the long duels are still playing when the worker dies.
    playing = [asyncio.create_task(after_the_kill(duel)) for duel in duels]
    await asyncio.sleep(0.3)
    killed_at = time.monotonic()
    cluster.servers[0].process.send_signal(signal.SIGKILL)
    await asyncio.wait_for(asyncio.gather(*playing), timeout=120)

    # Every client of the dead worker came back through the balancer, to the survivor.
    moved = [seat for seat in seats if seat.reconnects]
    assert len(moved) >= held[0] * 3 // 4, (len(moved), held)
    async with httpx.AsyncClient(base_url=cluster.http, timeout=30) as http:
        for duel in duels:
            await check_duel(http, duel, killed_at)
    for index, seq in watched_at_kill.items():
        spectator = duels[index].second
        seen = [f["seq"] for f in spectator.frames()
                if f.get("type") == "watch" and f["player_id"] == duels[index].first.player.id]
        # Still watching after the kill: every step played since reached the spectator.
        assert set(range(seq + 1, duels[index].first.seq + 1)) <= set(seen), (seq, seen)

    # Mid-duel: actions were in flight when the worker died (each sent again after).
    assert sum(seat.interrupted for seat in seats) >= 5, [s.interrupted for s in seats]
    for seat in seats:
        check_stream(seat)
    for seat in seats:
        await seat.connection.close()


def check_stream(seat: Seat) -> None:
    """One stream across every connection: each reconnection resumed it, and the events
    received, in order, are numbered 1, 2, 3, … with none missing and none twice."""
    connections = [*seat.history, seat.connection]
    first = connections[0].welcome
    for client in connections[1:]:
        assert client.welcome["resumed"] is True, client.welcome
        assert client.welcome["stream"] == first["stream"]
    numbers = [f["n"] for f in seat.frames() if "n" in f]
    assert numbers == list(range(1, len(numbers) + 1)), numbers


def rated(games: Iterable[dict[str, Any]], limit_ms: int) -> bool:
    """Whether a settled match of started games moved ratings: each played enough, and
    was rated enough (docs/ratings.md)."""
    return all((g["status"] == "won" or g["actions"] >= MIN_RATED_ACTIONS
                or g["time_used_ms"] >= MIN_RATED_MS)
               and rated_enough(status=g["status"], actions=g["actions"],
                                time_used_ms=g["time_used_ms"],
                                time_limit_seconds=limit_ms // 1000) for g in games)


async def connections_of(http: httpx.AsyncClient, server: str) -> int:
    text = (await http.get(f"{server}/metrics")).text
    line = next(x for x in text.splitlines() if x.startswith("spider_ws_connections "))
    return int(float(line.split()[1]))


async def check_duel(http: httpx.AsyncClient, duel: Duel, killed_at: float) -> None:
    result = (await http.get(f"/api/matches/{duel.match_id}")).json()
    assert result["status"] == "finished", result
    games = {game["player_id"]: game for game in result["games"]}
    reader = await DuelClient.open(duel.first.url, duel.first.player)  # a connection of its own
    try:
        states = await true_positions(reader, duel.match_id,
                                      [duel.first.player.id, duel.second.player.id])
    finally:
        await reader.close()
    for seat in (duel.first, duel.second):
        game = games[seat.player.id]
        # Every acknowledged action is in the log, and nothing else: the record replays
        # to the view of the last ack, and the totals on the row are the log's.
        assert states[seat.player.id][-1].actions == seat.view["actions"]
        assert game["actions"] == seat.view["actions"], (game, seat.view["actions"])
        last = seat.acked[-1] if seat.acked else None
        if last is not None:
            assert game["score"] == last["score"], (game, last)
        if duel.index in SHORT_CLOCK:
            # Timed out at the deadline, on the surviving worker, with its true totals.
            assert game["status"] == "timed_out", game
            assert game["time_used_ms"] == SHORT_LIMIT_S * 1000, game
        else:
            assert game["status"] == "finished", game
            # The clock ran through the failover: the time used is the wall time from
            # opening to finishing, and the finish's own ack says the same.
            shortest = (seat.finish_sent - seat.open_answered) * 1000
            longest = (seat.finish_answered - seat.open_sent) * 1000
            assert shortest - 5 <= game["time_used_ms"] <= longest + 5, (game, shortest, longest)
            assert seat.limit_ms - seat.acked[-1]["time_left_ms"] == game["time_used_ms"]
        # Settled once: at most one rated game in the player's rating, the one the result
        # shows; none when a game was too short to count (app/services/ratings.py).
        me = (await http.get(f"/api/players/{seat.player.id}")).json()
        rating = next(r for r in me["ratings"] if r["suits"] == 1)
        if rated(games.values(), seat.limit_ms):
            assert rating["games"] == 1, me
            assert abs(rating["rating"] - game["rating_after"]) < 1e-6, (me, game)
        else:
            assert rating["games"] == 0 and game["rating_after"] is None, (me, game)
        results = {f["n"] for f in seat.frames()
                   if f.get("type") == "match_result" and f["match_id"] == duel.match_id}
        assert len(results) >= 1
    assert killed_at > duel.opened_at
