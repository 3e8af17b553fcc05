"""Event streams: numbering, resuming, presence, and channels dropped after a match."""

import asyncio
import gc
import json
from typing import Any

import pytest

from app.messaging import channels, stream_hub
from app.messaging import outbox as outbox_module
from app.messaging import player_streams as streams
from app.messaging.player_streams import EventStream, Outbox
from app.messaging.pubsub import MemoryPubSub
from app.messaging.stream_hub import StreamHub
from app.wire.base import numbered
from app.wire.duel import Ack
from app.wire.frames import Echo, Gap, encode
from app.wire.news import Resync
from tests.support.clock import FakeClock
from tests.support.frames import (
    a_game_over,
    a_progress,
    a_reject,
    a_result,
    a_view,
    a_welcome,
    an_ack,
    an_invite,
    as_json,
    kind,
)

Payload = Any  # what an outbox's tests put: any object, sent as it is


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_events_are_numbered_and_missed_ones_replayed_in_order() -> None:
    session = EventStream(1, MemoryPubSub())
    frames = [session.emit(a_progress(score=i)) for i in range(5)]
    assert [f.n for f in frames] == [1, 2, 3, 4, 5]
    missed = session.missed_since(session.stream, 2)
    assert missed is not None and missed == frames[2:]
    assert session.missed_since(session.stream, 5) == []
    assert session.missed_since("another-stream", 2) is None
    assert session.missed_since(session.stream, 9) is None  # from the future
    assert session.missed_since(None, None) is None


async def test_the_resume_buffer_holds_nothing_the_collector_walks() -> None:
    session = EventStream(1, MemoryPubSub())
    frame = session.emit(an_ack(1, view=a_view(actions=3)))
    gc.collect()  # a tuple of atoms is untracked once the collector has seen it
    assert session._buffer is not None and len(session._buffer) == 1
    assert not any(gc.is_tracked(entry) for entry in session._buffer)
    assert session.missed_since(session.stream, 0) == [frame]  # the same frame, rebuilt


async def test_a_position_older_than_the_buffer_gets_no_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(streams, "BUFFER_EVENTS", 3)
    session = EventStream(1, MemoryPubSub())
    for i in range(6):
        session.emit(a_progress(score=i))
    assert session.missed_since(session.stream, 1) is None
    missed = session.missed_since(session.stream, 3)
    assert missed is not None and [getattr(f, "n", None) for f in missed] == [4, 5, 6]


async def test_a_new_connection_gets_its_prelude_before_anything_live() -> None:
    pubsub = MemoryPubSub()
    hub = StreamHub(pubsub)
    _, outbox = await hub.connect(7, lambda s: [a_welcome()])
    await pubsub.publish(channels.player(7), an_invite(1))
    await settle()
    first, second = outbox.pending
    assert kind(first) == "welcome"
    assert kind(second) == "invite" and getattr(second, "n", None) == 1
    await hub.close()


async def test_progress_lines_reach_the_other_players_not_the_one_they_describe() -> None:
    pubsub = MemoryPubSub()
    hub = StreamHub(pubsub)
    ann, ann_box = await hub.connect(1, lambda s: [])
    bob, bob_box = await hub.connect(2, lambda s: [])
    for session in (ann, bob):
        await session.follow(channels.match(9))
    for player_id in (1, 2):
        await pubsub.publish(channels.match(9), a_progress(player_id))
    await pubsub.publish(channels.match(9), a_game_over(1))
    await settle()
    about = {
        name: [(kind(f), (as_json(f).get("progress") or as_json(f))["player_id"])
               for f in box.pending if f is not None]
        for name, box in (("ann", ann_box), ("bob", bob_box))
    }
    assert about["ann"] == [("progress", 2), ("game_over", 1)]
    assert about["bob"] == [("progress", 1), ("game_over", 1)]
    assert [as_json(f)["n"] for f in ann_box.pending if f is not None] == [1, 2]  # no gap
    await hub.close()


class SlowPubSub(MemoryPubSub):
    """Subscribing takes a turn of the loop, as over the network (Redis)."""

    async def subscribe(self, channel: str) -> Any:
        await asyncio.sleep(0.01)
        return await super().subscribe(channel)


async def test_two_tabs_connecting_at_once_share_one_stream() -> None:
    # Two tabs of a player coming back at the same moment (their process died): one
    # session, so each tab gets every event (each of its own would get half of them).
    pubsub = SlowPubSub()
    hub = StreamHub(pubsub)
    (one, one_box), (two, two_box) = await asyncio.gather(
        hub.connect(7, lambda s: []), hub.connect(7, lambda s: []))
    assert one is two and one.connections == 2
    one.emit(an_ack(1))
    await pubsub.publish(channels.player(7), an_invite(1))
    await settle()
    for box in (one_box, two_box):
        assert [kind(f) for f in box.pending if f is not None] == ["ack", "invite"]
    assert len(hub._connecting) == 0  # no lock kept once both are in
    await hub.close()


async def test_presence_follows_connections() -> None:
    pubsub = MemoryPubSub()
    watch = await pubsub.subscribe(channels.presence(7))
    changes: list[int] = []

    async def listener(player_id: int) -> None:
        changes.append(player_id)

    hub = StreamHub(pubsub)
    hub.on_presence(listener)
    session, first = await hub.connect(7, lambda s: [])
    _, second = await hub.connect(7, lambda s: [])
    assert hub.is_online(7) and hub.online_among([7, 8]) == [7]
    await hub.disconnect(session, first)
    assert hub.is_online(7)  # one connection left
    await hub.disconnect(session, second)
    assert not hub.is_online(7)
    seen = [await asyncio.wait_for(watch.__anext__(), 1) for _ in range(2)]
    assert [m.online for m in seen] == [True, False] and changes == [7, 7]
    await hub.close()


async def test_a_settled_match_s_channels_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streams, "MATCH_CHANNEL_GRACE_SECONDS", 0)
    pubsub = MemoryPubSub()
    session = EventStream(1, pubsub)
    await session.follow(channels.match(5))
    await session.follow(channels.watch(5, 2))
    await session.follow(channels.match(6))
    session.emit(a_result(5))
    await settle()
    assert not session.following(channels.match(5))
    assert not session.following(channels.watch(5, 2))
    assert session.following(channels.match(6))
    assert pubsub.subscriber_count(channels.match(5)) == 0
    await session.close()


async def test_a_match_settled_by_two_processes_is_told_once() -> None:
    # Two processes that hold one match may both settle it: the store settles it once and
    # answers each with the same result, which each publishes (app/rooms/step_runner.py).
    pubsub = MemoryPubSub()
    session = EventStream(1, pubsub)
    await session.follow(channels.player(1))
    result = a_result(5, winner_id=1)
    for message in (result, result, a_result(6, winner_id=1)):
        await pubsub.publish(channels.player(1), message)
    await settle()
    told = [f for f in session.missed_since(session.stream, 0) or [] if kind(f) == "match_result"]
    assert [as_json(f)["match_id"] for f in told] == [5, 6]
    await session.close()


async def test_idle_streams_are_forgotten() -> None:
    clock = FakeClock()
    hub = StreamHub(MemoryPubSub(), clock)
    session, outbox = await hub.connect(3, lambda s: [])
    await hub.disconnect(session, outbox)
    clock.now += stream_hub.IDLE_SESSION_SECONDS
    await hub.sweep()
    assert await hub.session(3) is session  # idle exactly that long: kept
    clock.now += 1
    await hub.sweep()
    assert await hub.session(3) is not session
    await hub.close()


class SlowSocket:
    """Records what an outbox delivers; each send takes a loop turn or two."""

    def __init__(self) -> None:
        self.sent: list[Payload | None] = []

    async def deliver(self, frame: Payload | None) -> None:
        await asyncio.sleep(0)
        self.sent.append(frame)


async def test_an_outbox_sends_in_order_and_holds_no_task_while_idle() -> None:
    socket, outbox = SlowSocket(), Outbox()
    outbox.put({"i": 0})  # before start: waits (the welcome goes first)
    outbox.start(socket.deliver)
    for i in range(1, 4):
        outbox.put({"i": i})  # while the drain is sending
    await settle()
    assert outbox._drain is None and outbox._pending is None  # idle: nothing held
    outbox.put({"i": 4})  # a new drain starts
    assert outbox._drain is not None
    await settle()
    assert [f and f["i"] for f in socket.sent] == [0, 1, 2, 3, 4]
    assert outbox._drain is None


async def test_an_outbox_that_overflows_asks_once_to_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(outbox_module, "OUTBOX_LIMIT", 3)
    socket, outbox = SlowSocket(), Outbox()
    for i in range(6):
        outbox.put({"i": i})
    assert outbox.overflowed and outbox.pending == [{"i": 0}, {"i": 1}, {"i": 2}, None]
    outbox.start(socket.deliver)
    await settle()
    outbox.put({"i": 9})  # after the close: dropped
    await settle()
    assert socket.sent == [{"i": 0}, {"i": 1}, {"i": 2}, None]


async def test_a_close_goes_after_the_frames_put_before_it_with_its_code() -> None:
    socket, outbox = SlowSocket(), Outbox()
    outbox.start(socket.deliver)
    outbox.put({"i": 0})
    outbox.put({"i": 1})
    outbox.close(1008)
    outbox.put({"i": 2})  # after the close: dropped
    await outbox.flushed()
    assert socket.sent == [{"i": 0}, {"i": 1}, None] and outbox.close_code == 1008
    await outbox.flushed()  # nothing left to wait for


async def test_a_stopped_outbox_sends_nothing_more() -> None:
    socket, outbox = SlowSocket(), Outbox()
    outbox.start(socket.deliver)
    outbox.put({"i": 0})
    outbox.put({"i": 1})
    await outbox.stop()  # cancels the send in progress
    outbox.put({"i": 2})
    await settle()
    assert socket.sent == [] and outbox._drain is None


async def test_a_failing_send_ends_the_outbox_quietly() -> None:
    sent: list[Payload | None] = []

    async def broken(frame: Payload | None) -> None:
        sent.append(frame)
        raise ConnectionResetError

    outbox = Outbox()
    outbox.start(broken)
    outbox.put({"i": 0})
    outbox.put({"i": 1})
    await settle()
    outbox.put({"i": 2})
    await settle()
    assert sent == [{"i": 0}] and outbox._drain is None


async def test_an_outbox_hands_frames_straight_to_a_ready_socket_and_keeps_order() -> None:
    socket, outbox = SlowSocket(), Outbox()
    direct: list[Payload] = []
    ready = [True]

    def send_now(frame: Payload, encoded: bytes | None, at_once: bool) -> bool:
        if ready[0]:
            direct.append(frame)
        return ready[0]

    outbox.put({"i": 0})  # before start: waits for the drain
    outbox.start(socket.deliver, send_now)
    outbox.put({"i": 1})  # the welcome is still waiting: behind it, not straight
    await settle()
    outbox.put({"i": 2})  # nothing waits: straight, no task
    assert outbox._drain is None and direct == [{"i": 2}]
    ready[0] = False  # paused: the frame waits its turn the usual way...
    outbox.put({"i": 3})
    ready[0] = True
    outbox.put({"i": 4})  # ...and the next one waits behind it
    outbox.put(None)  # a close is never sent straight
    await settle()
    assert [f and f["i"] for f in socket.sent] == [0, 1, 3, 4, None]
    assert direct == [{"i": 2}]


async def test_an_event_is_encoded_once_for_the_buffer_and_every_connection() -> None:
    session = EventStream(1, MemoryPubSub())
    handed: list[tuple[Payload, bytes | None]] = []
    for _ in range(2):  # two connections of the same player
        outbox = session.attach([])
        outbox.start(SlowSocket().deliver, lambda f, e, now: handed.append((f, e)) is None)
    frame = session.emit(a_progress(2, score=3))
    assert [f for f, _ in handed] == [frame, frame]
    first, second = (e for _, e in handed)
    assert first is not None and first is second  # made once, handed to both
    assert json.loads(first) == as_json(frame) and first == encode(frame)
    assert session._buffer is not None and session._buffer[-1] == (frame.n, first)


async def test_an_answer_is_written_at_once_other_events_with_the_loop_turn() -> None:
    session = EventStream(1, MemoryPubSub())
    handed: list[tuple[str, bool]] = []
    outbox = session.attach([])
    outbox.start(SlowSocket().deliver,
                 lambda f, e, at_once: handed.append((kind(f), at_once)) is None)
    session.emit(a_progress(2, score=3))
    session.emit_answer(an_ack(1))
    session.emit_answer(a_reject(2, "bad_seq"))
    assert handed == [("progress", False), ("ack", True), ("reject", True)]


async def test_a_channel_that_lost_messages_tells_the_client_to_resync() -> None:
    # The Redis bus sends a gap marker on a channel once Redis is back from losing
    # some of its messages (app/messaging/redis_pubsub.py): the client hears `resync`, a
    # numbered event like any other (a resume replays it too).
    pubsub = MemoryPubSub()
    hub = StreamHub(pubsub)
    session, outbox = await hub.connect(7, lambda s: [a_welcome()])
    await session.follow(channels.match(3))
    await pubsub.publish(channels.match(3), Gap())
    await settle()
    _, told = outbox.pending
    assert told == Resync("events_lost", n=1)
    assert session.missed_since(session.stream, 0) == [told]
    await hub.close()


async def test_a_channel_message_that_is_no_frame_is_dropped_and_said(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Through Redis a frame arrives as its JSON object and is read back as its type; one
    # that is no frame of the protocol (another version's, a bug's) is never sent on.
    pubsub = MemoryPubSub()
    session = EventStream(1, pubsub)
    await session.follow(channels.player(1))
    for message in (as_json(an_invite(3)), {"type": "bogus"}, {"type": "ack", "seq": "two"},
                    {"type": "invite", "invite": {"id": 3}}):  # no invitation: no frame
        await pubsub.publish(channels.player(1), message)
    await settle()
    assert session.missed_since(session.stream, 0) == [numbered(an_invite(3), 1)]
    assert sum("no frame" in record.getMessage() for record in caplog.records) == 3
    await session.close()


async def test_an_echo_of_an_ack_the_stream_carried_is_not_taken_again() -> None:
    """A stream taken over beside a tab of the player gets that tab's acks at once, in
    the process, while it reads the channel's kept messages, which hold their echoes
    too (the chaos test saw an ack twice): the echo of an ack carried is dropped; a
    duplicate (a resend answered again) and an ack not carried still pass."""
    bus = MemoryPubSub()
    session = EventStream(1, bus)
    await session.follow(channels.player(1))
    session.emit(an_ack(5))
    for echoed in (an_ack(5), an_ack(5, duplicate=True), an_ack(6)):
        await bus.publish(channels.player(1), Echo(echoed, "a-sibling"))
    await settle()
    missed = session.missed_since(session.stream, 0)
    assert missed is not None
    assert [(f.seq, f.duplicate) for f in missed if isinstance(f, Ack)] == [
        (5, False), (5, True), (6, False)]
