"""Players' event streams in Redis: a client resumes on another process with exactly the
events it missed, including those published while no process held its stream."""

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.messaging import channels
from app.messaging.player_streams import EventStream, Outbox
from app.messaging.redis_pubsub import RedisPubSub
from app.messaging.redis_streams import RedisEventStreams
from app.messaging.stream_hub import StreamHub
from app.wire.base import Frame
from app.wire.frames import Echo
from app.wire.session import Welcome
from tests.support.frames import a_progress, an_ack, an_invite, as_json
from tests.support.servers import require_redis

PLAYER = 7
Frames = list[dict[str, Any]]


class Process:
    """One server process's bus, stream writer and sessions."""

    def __init__(self, url: str, prefix: str) -> None:
        self.bus = RedisPubSub(url, prefix=prefix)
        self.streams = RedisEventStreams(
            self.bus.client, prefix=prefix, owner=self.bus.client_name, retention=50,
            ttl_seconds=60, channel_key=self.bus.stream_key)
        self.hub = StreamHub(self.bus, shared=self.streams)

    async def connect(self, resume: tuple[str | None, int | None] = (None, None)
                      ) -> tuple[EventStream, Outbox, Frames]:
        received: Frames = []

        def prelude(session: EventStream) -> list[Frame]:
            missed = session.missed_since(*resume)
            return [Welcome(1, PLAYER, session.stream, session.last_n, missed is not None),
                    *(missed or [])]

        session, outbox = await self.hub.connect(PLAYER, prelude, resume)

        async def deliver(frame: Frame | None) -> None:
            if frame is not None:
                received.append(as_json(frame))  # as its client reads it

        outbox.start(deliver)
        return session, outbox, received

    async def close(self) -> None:
        await self.hub.close()
        await self.bus.close()


@pytest.fixture
async def processes() -> AsyncIterator[tuple[Process, Process]]:
    url = require_redis()
    prefix = f"t{uuid.uuid4().hex[:8]}:"  # the Redis is shared: keys of this test only
    one, two = Process(url, prefix), Process(url, prefix)
    yield one, two
    await one.close()
    await two.close()


async def settled(*processes: Process) -> None:
    for _ in range(3):
        await asyncio.sleep(0.05)
        for process in processes:
            await process.streams.flushed()


def numbers(frames: Frames) -> list[int]:
    return [f["n"] for f in frames if "n" in f]


def ident(frame: dict[str, Any]) -> int | None:
    """Which of a test's invitations (its id) or progress lines (its score) a frame is."""
    if frame["type"] == "invite":
        return int(frame["invite"]["table_id"])
    if frame["type"] == "progress":
        return int(frame["progress"]["score"])
    return None


async def test_a_client_resumes_on_another_process_with_exactly_what_it_missed(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    session, outbox, seen = await one.connect()
    stream = session.stream
    session.emit(an_ack(1))  # an answer of this process
    await one.bus.publish(channels.player(PLAYER), an_invite(1))
    await settled(one)
    assert [(f["type"], f["n"]) for f in seen[1:]] == [("ack", 1), ("invite", 2)]
    await one.hub.disconnect(session, outbox)
    await outbox.stop()
    # Away: the session on process one still takes the player's messages.
    for index in range(2, 5):
        await two.bus.publish(channels.player(PLAYER), an_invite(index))
    await settled(one)

    moved, _, again = await two.connect((stream, 2))
    await settled(one, two)
    welcome, *missed = again
    assert welcome == {"type": "welcome", "v": 1, "player_id": PLAYER, "stream": stream,
                       "last_event": 5, "resumed": True}
    assert [(f["type"], f["n"], ident(f)) for f in missed] == [
        ("invite", 3, 2), ("invite", 4, 3), ("invite", 5, 4)]
    # Process two writes the stream from now on; process one lost it at its next write.
    await one.bus.publish(channels.player(PLAYER), an_invite(5))
    await settled(one, two)
    assert [(f["n"], ident(f)) for f in again[4:]] == [(6, 5)]
    assert numbers(seen) + numbers(again) == list(range(1, 7))  # none lost, none twice
    assert one.hub._sessions.get(PLAYER) is None  # it gave the stream up
    assert moved.stream == stream and moved.last_n == 6


async def test_what_was_published_while_no_process_held_the_stream_is_caught_up(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    session, _, seen = await one.connect()
    await session.follow(channels.match(3))
    await one.bus.publish(channels.match(3), a_progress(score=1))
    await settled(one)
    last = numbers(seen)[-1]
    # Process one dies: nothing of it takes messages any more.
    await one.bus.close()
    for index in range(2, 6):
        await two.bus.publish(channels.match(3), a_progress(score=index))
    await two.bus.publish(channels.player(PLAYER), an_invite(9))

    _, _, again = await two.connect((session.stream, last))
    await settled(two)
    assert again[0]["resumed"] is True
    caught = [(f["type"], ident(f)) for f in again[1:]]
    assert sorted(caught) == sorted([("progress", i) for i in range(2, 6)] + [("invite", 9)])
    assert [ident(f) for f in again[1:] if f["type"] == "progress"] == [2, 3, 4, 5]  # in order
    assert numbers(again)[0] == last + 1
    assert numbers(again) == list(range(last + 1, last + 1 + len(caught)))
    # Live again, and a message seen by the catch-up is not taken twice.
    await two.bus.publish(channels.match(3), a_progress(score=6))
    await settled(two)
    assert [ident(f) for f in again if f.get("type") == "progress"] == [2, 3, 4, 5, 6]


async def test_a_stream_gone_or_not_the_players_is_not_taken_over(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    session, _, _ = await one.connect()
    session.emit(an_ack(1))
    await settled(one)
    assert await two.streams.claim(session.stream, PLAYER + 1, 0) is None  # someone else's
    assert await two.streams.claim(session.stream, PLAYER, 5) is None  # ahead of the stream
    assert await two.streams.claim("no-such-stream", PLAYER, 0) is None
    _, _, fresh = await two.connect(("no-such-stream", 3))
    await settled(two)
    assert fresh[0]["resumed"] is False and fresh[0]["stream"] != "no-such-stream"


async def test_a_tab_resumes_its_own_stream_where_another_tab_of_the_player_is(
    processes: tuple[Process, Process],
) -> None:
    """Issue 23, target 2: two tabs on two processes; the one whose process goes away
    comes back where the other tab is and resumes its own stream (it used to get a
    fresh one and snapshots); from then on each gets every event, the other's acks too."""
    one, two = processes
    a, a_box, a_seen = await one.connect()  # tab A on process one
    b, _, b_seen = await two.connect()  # tab B on process two: another stream
    for session in (a, b):
        await session.follow(channels.match(3))
    await two.bus.publish(channels.match(3), a_progress(score=1))
    await settled(one, two)
    last = numbers(a_seen)[-1]
    await one.hub.disconnect(a, a_box)  # A's connection drops
    await a_box.stop()
    await two.bus.publish(channels.match(3), a_progress(score=2))
    await settled(one, two)

    moved, _, again = await two.connect((a.stream, last))
    await settled(one, two)
    assert again[0]["resumed"] is True and moved.stream == a.stream != b.stream
    assert [ident(f) for f in again[1:]] == [2]  # what it missed, nothing twice
    assert two.hub.is_online(PLAYER)
    # Each tab's acks reach the other (same process: no echo through Redis), once.
    b.emit_answer(an_ack(5))
    moved.emit_answer(an_ack(6))
    await two.bus.publish(channels.match(3), a_progress(score=3))
    await settled(one, two)
    for seen in (again, b_seen):
        assert sorted((f["type"], f.get("seq") or ident(f)) for f in seen
                      if f["type"] in ("ack", "progress") and ident(f) != 1
                      and ident(f) != 2) == [("ack", 5), ("ack", 6), ("progress", 3)]
        assert numbers(seen) == list(range(numbers(seen)[0], numbers(seen)[-1] + 1))
    assert numbers(again)[0] == last + 1


async def test_a_tab_taken_over_after_its_process_died_gets_no_ack_twice() -> None:
    """Two tabs' streams on one process took an ack there, each at once, with no other
    process following the player; that process dies and one of the streams is taken over
    on another: it catches up on nothing it had (the echo it skipped passed its cursor)."""
    url = require_redis()
    prefix = f"t{uuid.uuid4().hex[:8]}:"
    one, two, three = (Process(url, prefix) for _ in range(3))
    try:
        a, a_box, _ = await one.connect()
        b, _, _ = await two.connect()
        await settled(one, two)
        await one.hub.disconnect(a, a_box)  # A moves to process two, beside B: siblings
        await a_box.stop()
        moved, _, again = await two.connect((a.stream, a.last_n))
        await one.close()  # nobody but process two follows the player now
        await settled(two)
        b.emit_answer(an_ack(5))
        await settled(two)
        assert [f["seq"] for f in again if f["type"] == "ack"] == [5]  # from B, here
        await two.bus.close()  # process two is gone: nobody holds either stream
        back, _, resumed = await three.connect((moved.stream, moved.last_n))
        await settled(three)
        assert resumed[0]["resumed"] is True and back.stream == a.stream
        assert [f for f in resumed[1:] if f["type"] == "ack"] == []  # had it: not again
    finally:
        await three.close()
        with contextlib.suppress(Exception):
            await two.hub.close()


async def test_a_stream_taken_over_does_not_take_the_echo_of_an_ack_it_carried() -> None:
    """An ack the tab had before its process died, whose echo that process's cursor had
    not passed yet (its write was lost with it), is not given again after the takeover."""
    url = require_redis()
    prefix = f"t{uuid.uuid4().hex[:8]}:"
    one, two = Process(url, prefix), Process(url, prefix)
    try:
        a, _, seen = await one.connect()
        a.emit(an_ack(5))  # as a sibling's answer, taken in the process
        await settled(one)
        assert [f["seq"] for f in seen if f["type"] == "ack"] == [5]
        await one.bus.close()  # process one is gone
        await two.bus.publish(channels.player(PLAYER), Echo(an_ack(5), "a-sibling"))
        await two.bus.publish(channels.player(PLAYER), Echo(an_ack(6), "a-sibling"))
        back, _, again = await two.connect((a.stream, a.last_n))
        await settled(two)
        assert again[0]["resumed"] is True and back.stream == a.stream
        assert [f["seq"] for f in again if f["type"] == "ack"] == [6]  # 5 not twice
    finally:
        await two.close()
        with contextlib.suppress(Exception):
            await one.hub.close()


async def test_an_ack_answered_again_reaches_the_player_s_other_tabs_too(
    processes: tuple[Process, Process],
) -> None:
    """Issue 23, target 2 (found by the chaos test): a process acknowledged a step and
    died before echoing it to the player's other tab; the resend, answered on another
    process from the log as a duplicate, is echoed too, or that tab never hears of the
    step. A tab that had it already ignores it (web/js/session.js: not past its seq)."""
    one, two = processes
    a, _, a_seen = await one.connect()  # the playing tab, where the resend landed
    _, _, b_seen = await two.connect()  # the listening tab, on the other process
    await settled(one, two)
    a.emit_answer(an_ack(14, duplicate=True))
    await settled(one, two)
    assert [(f["seq"], f["duplicate"]) for f in b_seen if f["type"] == "ack"] == [(14, True)]
    assert [f["seq"] for f in a_seen if f["type"] == "ack"] == [14]  # its own, once


@pytest.mark.parametrize("duplicate", [True, False])
async def test_a_tab_taken_over_after_its_process_died_gets_what_was_answered_meanwhile(
    duplicate: bool,
) -> None:
    """The chaos test's second case: both tabs' processes went away at once; the playing
    tab came back first and its resend was answered (a duplicate), or its next action
    (a clean-clone run of the chaos test lost one such ack), while nobody held the
    listening tab's stream. That answer is kept on the player's channel, and the stream,
    taken over here, catches up on it although the tab that made it is beside it now."""
    url = require_redis()
    prefix = f"t{uuid.uuid4().hex[:8]}:"
    one, two = Process(url, prefix), Process(url, prefix)
    try:
        a, _, _ = await one.connect()  # the playing tab, back first
        b, _, b_seen = await two.connect()  # the listening tab, its process about to die
        await settled(one, two)
        last = b_seen[0]["last_event"]
        await two.bus.close()  # process two is gone: nobody holds B's stream, nothing said
        a.emit_answer(an_ack(14, duplicate=duplicate))
        await settled(one)
        back, _, again = await one.connect((b.stream, last))
        await settled(one)
        assert again[0]["resumed"] is True and back.stream == b.stream != a.stream
        assert [(f["seq"], f["duplicate"]) for f in again if f["type"] == "ack"] == [
            (14, duplicate)]
    finally:
        await one.close()
        with contextlib.suppress(Exception):
            await two.hub.close()
