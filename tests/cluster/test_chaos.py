"""Chaos through the balancer: every fault of issue 23 in one run, under live duels.

Two workers behind HAProxy (deploy/haproxy.cfg), a PostgreSQL database and a Redis of
the test's own (the shared Redis is never restarted). Ten duels; every player has two
tabs: one plays, the other only listens (its own acks echoed, the opponent's progress)
and, in half the duels, the player who finished first watches the opponent from it.
While everybody plays at a human-ish pace, in turn: worker 0 is SIGKILLed and started
again on its port, then worker 1, then Redis restarts (losing everything it held), then
every database backend of the cluster is terminated, several times.

The invariant checker then asserts, from what the clients received and from the record:
- exactly one answer per action (one `ack` or `reject` per seq on the connection that
  sent it; a resend after a dropped connection is answered `duplicate`), no `error`;
- every connection's events numbered 1, 2, 3, … in order with none twice; a gap in `n`,
  a `resync` or a stream that could not resume is an explicit resync, after which the
  tab asks again for what it follows (docs/protocol.md, "When events are lost"), and
  what it shows in the end is the truth: each watched step, each own ack, reached it or
  was covered by a later snapshot;
- 0 acknowledged actions lost: each game's replay is the last ack's position;
- each match settled once (one rated game per player, one `match_result` per stream);
- each clock within 100 ms of the wall time from opening to finishing (the clock runs
  through every fault: docs/operations.md says so);
- no frame of a game in progress carries a hidden card.

What it found, fixed since: two processes settling one match at once told the result
twice (a stream now drops a result it told already); two tabs of a player coming back at
once each made a session of the stream they shared, and each got half the events (a
per-player lock on connecting). A reconnection that cannot resume (the other tab holds a
session on another stream there, or Redis lost the stream) is an explicit resync.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from bench.bot import choose
from bench.client import DuelClient, Player, ProtocolFailure, seat_pair, signup
from bench.database import PG_HOST, PG_PORT, PG_USER
from tests.cluster.test_failover import connections_of, rated
from tests.support.cluster import QUICK, Cluster, pg_cluster_on
from tests.support.duelists import true_positions
from tests.support.leaks import check_frames
from tests.support.own_redis import OwnRedis, own_redis  # noqa: F401 (fixture)

DUELS = 10
EARLY_FINISH = range(0, 5)  # the second player finishes at once, then watches
PACE_S = (0.03, 0.09)
CLOCK_SLACK_MS = 100
RECONNECT_WITHIN_S = 30.0
UNAVAILABLE_RETRY_S = 1.0  # a read refused as `unavailable` is asked again (web/js/socket.js)
CALM_S = 1.5  # between two faults: play goes on, the cluster settles

Frame = dict[str, Any]


@pytest.fixture
def chaos_cluster(own_redis: OwnRedis, tmp_path: Path  # noqa: F811
                  ) -> Iterator[Cluster]:
    for cluster in pg_cluster_on(tmp_path, own_redis.url, **QUICK):
        cluster.balance()
        yield cluster


@dataclass
class Tab:
    """One browser tab of a player: a connection through the balancer and, after each
    failure, the next one, resuming the same event stream when the server can."""

    player: Player
    url: str
    connections: list[DuelClient] = field(default_factory=list)
    follows: list[Frame] = field(default_factory=list)  # asked again after a resync
    resyncs: int = 0  # explicit: a `resync`, a gap in `n`, a stream not resumed
    interrupted: int = 0  # requests a dropped connection was sent again after
    _last_n: int = 0
    _seen: int = 0  # frames of the current connection already looked at
    unavailable: int = 0  # reads refused while the database was cut, each asked again
    ask_again_at: float | None = None
    _reconnecting: asyncio.Lock = field(default_factory=asyncio.Lock)
    moves: list[tuple[float, bool]] = field(default_factory=list)  # (when, resumed)

    @property
    def client(self) -> DuelClient:
        return self.connections[-1]

    def frames(self) -> list[Frame]:
        return [frame for client in self.connections for frame in client.frames]

    async def connect(self) -> None:
        self.connections.append(await self._open(None, None))
        self._last_n = self.client.welcome["last_event"]

    async def _open(self, stream: str | None, last_event: int | None) -> DuelClient:
        deadline = time.monotonic() + RECONNECT_WITHIN_S
        while True:
            try:
                return await DuelClient.open(self.url, self.player, stream=stream,
                                             last_event=last_event)
            except InvalidStatus as refused:
                # The balancer's 5xx while it learns that a worker died: a browser retries
                # on it as on a dropped connection (web/js/socket.js).
                assert refused.response.status_code in (502, 503, 504), refused
            except (OSError, ConnectionClosed, TimeoutError, ProtocolFailure):
                pass  # a worker without Redis may refuse a new connection (docs/protocol.md)
            assert time.monotonic() < deadline, f"no worker took {self.player.name}'s tab"
            await asyncio.sleep(0.1)

    async def reconnect(self, old: DuelClient) -> None:
        """Replace ``old`` (dropped) by a new connection, once, whoever notices first."""
        async with self._reconnecting:
            if self.client is not old:
                return
            self.connections.append(await self._open(old.welcome["stream"], old.last_event))
            self.moves.append((time.monotonic(), self.client.welcome["resumed"]))
            self._seen = 0
            if not self.client.welcome["resumed"]:
                self.resyncs += 1
                self._last_n = self.client.welcome["last_event"]
                await self.follow_again()

    async def request(self, frame: Frame) -> Frame:
        """Send ``frame``; if the connection drops under it, reconnect and send it again
        (an action already applied is then answered as a duplicate)."""
        while True:
            client = self.client
            try:
                answer, _ = await client.request(frame)
            except (ConnectionError, ConnectionClosed):
                self.interrupted += 1
                await self.reconnect(client)
                continue
            if answer.get("type") != "error" or answer.get("code") != "unavailable":
                return answer
            # The match could not be read (the database cut): nothing changed, and the
            # frame is sent again, as docs/protocol.md ("Errors") says.
            self.unavailable += 1
            await asyncio.sleep(UNAVAILABLE_RETRY_S)

    async def follow_again(self) -> None:
        """Ask again for what this tab follows, as the browser does (web/js/socket.js):
        sent without waiting, each answer is a snapshot among the frames."""
        for frame in self.follows:
            try:
                await self.client.ws.send(json.dumps(frame))
            except ConnectionClosed:
                return  # the keeper reconnects, and asks again then

    def lost_news(self) -> bool:
        """Whether frames that came since the last look say events were lost."""
        fresh = self.client.frames[self._seen:]
        self._seen += len(fresh)
        lost = False
        for frame in fresh:
            if frame.get("type") == "error" and frame.get("code") == "unavailable":
                self.ask_again_at = time.monotonic() + UNAVAILABLE_RETRY_S
            if "n" not in frame:
                continue
            if frame["type"] == "resync" or frame["n"] > self._last_n + 1:
                lost = True
            self._last_n = max(self._last_n, frame["n"])
        return lost

    async def keep(self, stop: asyncio.Event) -> None:
        """Every tab, as the browser's socket: back through the balancer when dropped; on
        news of lost events, ask again for what it follows."""
        while not stop.is_set():
            client = self.client
            if client.ws.state.name == "CLOSED":
                await self.reconnect(client)
            elif self.lost_news():
                self.resyncs += 1
                await self.follow_again()
            elif self.ask_again_at is not None and time.monotonic() >= self.ask_again_at:
                self.ask_again_at = None  # what it follows could not be read: ask again
                self.unavailable += 1
                await self.follow_again()
            await asyncio.sleep(0.05)


@dataclass
class Side:
    """One player of one duel: the tab that plays, and a second that listens."""

    player: Player
    match_id: int
    rng: random.Random
    playing: Tab
    listening: Tab
    view: Frame = field(default_factory=dict)
    seq: int = 0
    status: str = "playing"
    acked: list[Frame] = field(default_factory=list)
    last_action_seq: int = 0
    limit_ms: int = 0
    open_sent: float = 0.0
    open_answered: float = 0.0
    finish_sent: float = 0.0
    finish_answered: float = 0.0

    async def open(self) -> None:
        self.open_sent = time.monotonic()
        snapshot = await self.playing.request({"type": "open_game", "match_id": self.match_id})
        self.open_answered = time.monotonic()
        assert snapshot["type"] == "snapshot", snapshot
        self.view, self.seq = snapshot["view"], snapshot["seq"]
        self.limit_ms = snapshot["time_limit_ms"]
        for tab in (self.playing, self.listening):
            tab.follows.append({"type": "open_game", "match_id": self.match_id})

    async def step(self) -> None:
        action = choose(self.view, manual_flip=True, rng=self.rng) or {"op": "undo"}
        answer = await self.playing.request({"type": "action", "match_id": self.match_id,
                                             "seq": self.seq + 1, "action": action})
        if answer["type"] == "ack":
            self.acked.append(answer)
            self.view, self.seq, self.status = answer["view"], answer["seq"], answer["status"]
            self.last_action_seq = self.seq
        elif answer["type"] == "reject" and answer.get("view") is not None:
            # not_stored while the database connection was cut: retry from its view.
            self.view, self.seq = answer["view"], answer["next_seq"] - 1
        else:
            raise AssertionError(answer)

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set() and self.status == "playing":
            await self.step()
            await asyncio.sleep(self.rng.uniform(*PACE_S))

    async def finish(self) -> None:
        if self.status != "playing":
            return
        self.finish_sent = time.monotonic()
        answer = await self.playing.request({"type": "finish", "match_id": self.match_id,
                                             "seq": self.seq + 1})
        assert answer["type"] == "ack" and answer["status"] == "finished", answer
        self.finish_answered = time.monotonic()
        self.acked.append(answer)
        self.seq, self.status = answer["seq"], answer["status"]

    async def watch(self, player_id: int) -> None:
        spectate = {"type": "spectate", "match_id": self.match_id, "player_id": player_id}
        answer = await self.listening.request(spectate)
        assert answer["type"] == "snapshot" and answer["role"] == "spectator", answer
        self.listening.follows.append(spectate)


@dataclass
class Duel:
    index: int
    first: Side
    second: Side

    @property
    def sides(self) -> tuple[Side, Side]:
        return self.first, self.second


async def seat_duels(cluster: Cluster) -> list[Duel]:
    duels = []
    async with httpx.AsyncClient(base_url=cluster.http, timeout=30) as http:
        for index in range(DUELS):
            ann, bob = await signup(http, f"Ann{index}"), await signup(http, f"Bob{index}")
            match_id = await seat_pair(http, ann, bob, rated=True, suits=1)
            duels.append(Duel(index, *(
                Side(player, match_id, random.Random(f"{index}{player.name}"),
                     Tab(player, cluster.ws), Tab(player, cluster.ws))
                for player in (ann, bob))))
    return duels


async def terminate_backends(database: str, times: int) -> int:
    """pg_terminate_backend on every connection of the cluster's database, ``times``
    times 100 ms apart; how many backends it ended."""
    admin = await asyncpg.connect(host=PG_HOST, port=PG_PORT, user=PG_USER,
                                  database="postgres")
    ended = 0
    try:
        for _ in range(times):
            ended += int(await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = $1 AND pid <> pg_backend_pid()", database))
            await asyncio.sleep(0.1)
    finally:
        await admin.close()
    return ended


async def faults(cluster: Cluster, redis: OwnRedis, log: list[str],
                 restarts: list[float]) -> None:
    """Each fault in turn, with play going on around them."""
    database = cluster.env["SPIDER_DATABASE_URL"].rsplit("/", 1)[1]
    for index in (0, 1):
        await asyncio.sleep(CALM_S)
        log.append(f"SIGKILL worker {index}")
        await asyncio.to_thread(cluster.restart, index, signal.SIGKILL)
    await asyncio.sleep(CALM_S)
    log.append("Redis restarted")
    restarts.append(time.monotonic())
    redis.stop()
    await asyncio.sleep(0.5)
    redis.start()
    await asyncio.sleep(CALM_S)
    ended = await terminate_backends(database, times=5)
    log.append(f"{ended} database backends terminated")
    assert ended >= 2, "each worker's connections to the database were cut"
    await asyncio.sleep(CALM_S)


async def test_chaos_every_fault_under_live_duels_loses_nothing(
    chaos_cluster: Cluster, own_redis: OwnRedis,  # noqa: F811
) -> None:
    cluster = chaos_cluster
    duels = await seat_duels(cluster)
    sides = [side for duel in duels for side in duel.sides]
    for side in sides:
        await side.playing.connect()
        await side.listening.connect()
    async with httpx.AsyncClient(timeout=10) as http:
        held = [await connections_of(http, server.http) for server in cluster.servers]
    assert all(count >= len(sides) // 2 for count in held), held  # both workers in play

    tabs = [tab for side in sides for tab in (side.playing, side.listening)]
    listen, play = asyncio.Event(), asyncio.Event()  # set: stop listening, stop playing
    keepers = [asyncio.create_task(tab.keep(listen)) for tab in tabs]
    for side in sides:
        await side.open()
    for duel in duels:
        if duel.index in EARLY_FINISH:
            for _ in range(3):
                await duel.second.step()
            await duel.second.finish()
            await duel.second.watch(duel.first.player.id)
    playing = [asyncio.create_task(side.play(play)) for side in sides]
    log: list[str] = []
    redis_restarted: list[float] = []
    await faults(cluster, own_redis, log, redis_restarted)
    play.set()
    await asyncio.wait_for(asyncio.gather(*playing), timeout=60)
    for side in sides:
        await side.finish()
    async with httpx.AsyncClient(base_url=cluster.http, timeout=30) as http:
        for side in sides:
            await until_settled(side.playing, side.match_id, http)
    await asyncio.sleep(1.0)  # the last steps reach the listening tabs
    listen.set()
    await asyncio.gather(*keepers)
    for tab in tabs:
        if tab.lost_news():  # a last look for lost news, as the keepers took it
            tab.resyncs += 1
            await tab.follow_again()
        elif tab.ask_again_at is not None:  # a read refused as unavailable, not asked yet
            tab.ask_again_at = None
            await tab.follow_again()
    await asyncio.sleep(1.0)

    reconnected = [c.welcome["resumed"] for tab in tabs for c in tab.connections[1:]]
    print(f"faults: {log}; reconnections {len(reconnected)}, resumed {sum(reconnected)}, "
          f"resyncs {sum(tab.resyncs for tab in tabs)}, "
          f"requests sent again {sum(tab.interrupted for tab in tabs)}, "
          f"reads refused as unavailable and asked again {sum(t.unavailable for t in tabs)}")
    # Every fault bit: actions were in flight when a worker died, and tabs moved.
    assert sum(tab.interrupted for tab in tabs) >= 3, log
    assert len(reconnected) >= len(tabs), log  # two kills: every tab moved at least once
    # Until Redis lost the streams, every tab resumed its own stream wherever it landed,
    # a second tab beside the first included.
    before = [resumed for tab in tabs for when, resumed in tab.moves if when < redis_restarted[0]]
    assert before and all(before), (sum(before), len(before))
    async with httpx.AsyncClient(base_url=cluster.http, timeout=30) as http:
        for duel in duels:
            await check_duel(http, duel)
    for side in sides:
        for tab in (side.playing, side.listening):
            check_answers(tab, side.match_id)
            check_stream(tab)
        check_own_acks_reached(side)
    for duel in duels:
        if duel.index in EARLY_FINISH:
            check_watched(duel.second.listening, duel.first)
    for side in sides:
        for tab in (side.playing, side.listening):
            for client in tab.connections:
                await client.close()


async def until_settled(tab: Tab, match_id: int, http: httpx.AsyncClient,
                        timeout: float = 30.0) -> None:
    """Until the tab got the `match_result`; a tab that had to resync may have missed it
    and reads the result over REST, as the browser does (web/js/table.js)."""
    deadline = time.monotonic() + timeout
    while not any(f["type"] == "match_result" and f["match_id"] == match_id
                  for f in tab.frames()):
        if tab.resyncs:
            result = (await http.get(f"/api/matches/{match_id}")).json()
            if result["status"] == "finished":
                return
        assert time.monotonic() < deadline, (tab.player.name, tab.frames()[-5:])
        await asyncio.sleep(0.05)


def check_answers(tab: Tab, match_id: int) -> None:
    """One answer per action on the connection that sent it, never an `error` but
    `unavailable` (a match that could not be read while the database was cut: nothing
    changed, the frame is sent again, docs/protocol.md "Errors"): for each seq, refusals
    while the database was cut (`not_stored`: nothing applied, the seq is sent again),
    then at most one ack, and nothing after it; the same ack wherever a seq was
    acknowledged (an echo, a resend's `duplicate`)."""
    acks: dict[int, Frame] = {}
    for client in tab.connections:
        assert [e for e in client.errors if e.get("code") != "unavailable"] == [], \
            client.errors
        answers: dict[int, list[Frame]] = {}
        for frame in client.frames:
            if frame["type"] in ("ack", "reject") and frame.get("match_id") == match_id \
                    and not frame.get("duplicate"):
                answers.setdefault(frame["seq"], []).append(frame)
        for seq, given in answers.items():
            *refusals, last = given
            if not all(f["type"] == "reject" and f["code"] == "not_stored" for f in refusals):
                describe(tab, "twice")
            assert all(f["type"] == "reject" and f["code"] == "not_stored"
                       for f in refusals), (seq, [(f["type"], f.get("n")) for f in given])
            assert last["type"] == "ack" or last["code"] == "not_stored", (seq, given)
        for frame in client.frames:
            if frame["type"] == "ack" and frame.get("match_id") == match_id:
                first = acks.setdefault(frame["seq"], frame)
                assert (first["view"], first["score"]) == (frame["view"], frame["score"])


def check_stream(tab: Tab) -> None:
    """Events in order, none twice, across every resumed connection."""
    last = tab.connections[0].welcome["last_event"]
    for index, client in enumerate(tab.connections):
        if index and client.welcome["resumed"]:
            assert client.welcome["stream"] == tab.connections[index - 1].welcome["stream"]
        elif index:
            last = client.welcome["last_event"]
        for frame in client.frames:
            if "n" in frame:
                assert frame["n"] > last, ("an event twice or out of order", frame, last)
                last = frame["n"]


def covered(frames: list[Frame], player_id: int, *, kinds: tuple[str, ...],
            role: str) -> set[int]:
    """The seqs of ``player_id``'s game that ``frames`` showed: one by one, or as a
    snapshot that covers every step up to it."""
    seen: set[int] = set()
    for frame in frames:
        if frame["type"] == "snapshot" and frame.get("role") == role and (
                frame.get("player_id", player_id) == player_id):
            seen |= set(range(frame["seq"] + 1))
        elif frame["type"] in kinds and frame.get("player_id", player_id) == player_id:
            seen.add(frame["seq"])
    return seen


def check_own_acks_reached(side: Side) -> None:
    """The listening tab learnt of every acknowledged step of its player's game."""
    shown = covered(side.listening.frames(), side.player.id, kinds=("ack",), role="player")
    missing = {ack["seq"] for ack in side.acked} - shown
    if missing:
        describe(side.listening, "listening")
        describe(side.playing, "playing")
    assert not missing, (side.player.name, sorted(missing), side.listening.resyncs)


def check_watched(spectator: Tab, watched: Side) -> None:
    """The spectator saw each step of the watched game, or a snapshot past it."""
    shown = covered(spectator.frames(), watched.player.id, kinds=("watch",), role="spectator")
    missing = set(range(1, watched.last_action_seq + 1)) - shown
    assert not missing, (watched.player.name, sorted(missing), spectator.resyncs)


async def check_duel(http: httpx.AsyncClient, duel: Duel) -> None:
    result = (await http.get(f"/api/matches/{duel.first.match_id}")).json()
    assert result["status"] == "finished", result
    games = {game["player_id"]: game for game in result["games"]}
    reader = await DuelClient.open(duel.first.playing.url, duel.first.player)
    try:
        states = await true_positions(reader, duel.first.match_id,
                                      [side.player.id for side in duel.sides])
    finally:
        await reader.close()
    for side in duel.sides:
        game = games[side.player.id]
        # Nothing acknowledged is lost, nothing else is there.
        assert states[side.player.id][-1].actions == side.view["actions"], side.player.name
        assert game["actions"] == side.view["actions"], (game, side.view["actions"])
        assert game["score"] == side.acked[-1]["score"], (game, side.acked[-1])
        # The clock ran through every fault: wall time from opening to finishing.
        shortest = (side.finish_sent - side.open_answered) * 1000 - CLOCK_SLACK_MS
        longest = (side.finish_answered - side.open_sent) * 1000 + CLOCK_SLACK_MS
        assert shortest <= game["time_used_ms"] <= longest, (game, shortest, longest)
        assert side.limit_ms - side.acked[-1]["time_left_ms"] == game["time_used_ms"]
        # Settled once.
        me = (await http.get(f"/api/players/{side.player.id}")).json()
        rating = next(r for r in me["ratings"] if r["suits"] == 1)
        assert rating["games"] == (1 if rated(games.values(), side.limit_ms) else 0), me
        for tab in (side.playing, side.listening):
            results = [(i, f["n"]) for i, c in enumerate(tab.connections) for f in c.frames
                       if f["type"] == "match_result"]
            if len(results) > 1:
                describe(tab, "told twice")
            assert len(results) <= 1, results
        # No hidden card in any frame of a game in progress, on any connection.
        for tab in (side.playing, side.listening):
            for client in tab.connections:
                check_frames([(side.player.id, f) for f in client.frames], states)


def describe(tab: Tab, why: str) -> None:
    """What a tab received, connection by connection (printed with a failure)."""
    for client in tab.connections:
        print(why, tab.player.name, client.welcome)
        print(why, [(f["type"], f.get("n"), f.get("seq")) for f in client.frames])
