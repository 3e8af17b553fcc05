"""Hostile frames against a live server: hypothesis generates them, the server must answer
each with a clear error (or a harmless answer), change nothing, crash never, and leave
other players alone."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bench.bot import choose
from tests.support.cluster import TRANSPORTS, Cluster, server_env
from tests.support.sync_client import SyncClient, seat, signup

ACCEPTABLE_ANSWERS = {"error", "reject", "snapshot", "presence", "replay", "pong"}


@dataclass
class Arena:
    """Ann plays match `mine` (3 actions in); Cat and Dan play match `theirs`."""

    cluster: Cluster
    ann: SyncClient
    cat: SyncClient
    dan: SyncClient
    mine: int
    theirs: int
    snapshot: dict[str, Any]

    @property
    def next_seq(self) -> int:
        return int(self.snapshot["seq"]) + 1


@pytest.fixture(scope="module", params=TRANSPORTS)
def arena(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
          ) -> Iterator[Arena]:
    """On each WebSocket path: the lean one and uvicorn's stock one answer alike (the
    transport's contract, as in test_ws_limits.py)."""
    from tests.support.database import migrated_sqlite_url

    workdir = tmp_path_factory.mktemp(f"fuzz-{request.param}")
    url = migrated_sqlite_url(workdir)
    # Limits high enough that the fuzzer's pace is not what gets refused.
    cluster = Cluster(server_env(url, SPIDER_WS_ACTIONS_PER_SECOND="10000",
                                 SPIDER_WS_ACTION_BURST="10000",
                                 SPIDER_WS_IMPLEMENTATION=request.param), workdir)
    server = cluster.start()
    try:
        with httpx.Client(base_url=server.http, timeout=10) as http:
            ann, bob, cat, dan = (signup(http, n) for n in ("Ann", "Bob", "Cat", "Dan"))
            mine, theirs = seat(http, ann, bob), seat(http, cat, dan)
        ann_ws, cat_ws, dan_ws = (SyncClient.open(server.ws, a) for a in (ann, cat, dan))
        snapshot = ann_ws.request({"type": "open_game", "match_id": mine}, "snapshot")
        rng = random.Random(1)
        for seq in range(1, 4):
            action = choose(snapshot["view"], manual_flip=True, rng=rng)
            ack = ann_ws.request({"type": "action", "match_id": mine, "seq": seq,
                                  "action": action}, "ack", "reject")
            assert ack["type"] == "ack", ack
            snapshot = {**snapshot, "view": ack["view"], "seq": seq, "score": ack["score"]}
        cat_ws.request({"type": "open_game", "match_id": theirs}, "snapshot")
        dan_ws.request({"type": "open_game", "match_id": theirs}, "snapshot")
        yield Arena(cluster, ann_ws, cat_ws, dan_ws, mine, theirs, snapshot)
        for client in (ann_ws, cat_ws, dan_ws):
            client.close()
    finally:
        cluster.stop()


# ------------------------------------------------------------------ hostile values

huge = st.sampled_from([2**31, 2**53 + 1, 2**63, 2**64, 10**40, -(10**40), -1, 0])
weird_scalar = (
    st.integers() | huge | st.floats(allow_nan=False) | st.text(max_size=20)
    | st.none() | st.booleans()
)
weird = st.recursive(weird_scalar, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
column = st.integers(min_value=-3, max_value=12) | huge | weird_scalar
ops = st.sampled_from(["move", "deal", "flip", "undo", "finish", "MOVE", "", "jump"])
action = st.fixed_dictionaries(
    {"op": ops},
    optional={"from": column, "to": column, "count": column, "col": column, "extra": weird},
) | weird
types = st.sampled_from([
    "action", "finish", "open_game", "spectate", "unspectate", "get_replay", "resume",
    "hello", "watch_presence", "subscribe_lobby", "hint", "nope", "", "ACTION",
]) | st.text(max_size=10)


def message(arena: Arena) -> st.SearchStrategy[Any]:
    # Ann's own match only with a seq that cannot apply (never the next one), so nothing
    # the fuzzer sends may legitimately change her game; the others' ids freely.
    match_id = st.sampled_from([arena.theirs, arena.theirs + 1000, 0]) | huge | weird_scalar
    own_seq = st.integers(min_value=-5, max_value=arena.next_seq - 1) | st.integers(
        min_value=arena.next_seq + 1, max_value=arena.next_seq + 5) | huge | weird_scalar
    structured = st.one_of(
        st.fixed_dictionaries({"type": types, "match_id": match_id, "seq": weird_scalar,
                               "action": action}),
        st.fixed_dictionaries({"type": st.sampled_from(["action", "finish"]),
                               "match_id": st.just(arena.mine), "seq": own_seq,
                               "action": action}),
        st.fixed_dictionaries({"type": st.sampled_from(["spectate", "get_replay"]),
                               "match_id": match_id, "player_id": weird_scalar}),
        st.dictionaries(st.text(max_size=8), weird, max_size=5),
    )
    return st.one_of(
        structured.map(json.dumps),
        st.text(max_size=200),  # malformed JSON, mostly
        structured.map(lambda m: json.dumps(m)[: max(1, len(json.dumps(m)) // 2)]),
        st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
        st.integers(1, 20).map(lambda n: '{"a":' * n + "1" + "}" * n),
        st.binary(max_size=64),
        st.just("x" * 20_000),
        weird.map(json.dumps),
    )


def test_hostile_frames_get_clear_errors_and_change_nothing(arena: Arena) -> None:
    @settings(max_examples=400, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        frame = data.draw(message(arena))
        answers = arena.ann.answers_to(frame)
        for answer in answers:
            if answer["type"] == "progress":  # her own match's news, never the others'
                assert answer["match_id"] == arena.mine, (frame, answer)
                continue
            assert answer["type"] in ACCEPTABLE_ANSWERS, (frame, answer)
            event(f"{answer['type']}:{answer.get('code', '')}")
            if answer["type"] == "error":
                assert answer["code"] != "internal", (frame, answer)
                assert answer["message"], answer
            if answer["type"] == "ack":  # pragma: no cover - listed for the failure message
                raise AssertionError((frame, answer))

    fuzz()

    # Nothing changed in Ann's game: same seq, same view.
    again = arena.ann.request({"type": "open_game", "match_id": arena.mine}, "snapshot")
    assert again["seq"] == arena.snapshot["seq"]
    assert again["view"] == arena.snapshot["view"]
    assert again["score"] == arena.snapshot["score"]
    # The others are unaffected: Cat still plays, Dan heard only about Cat's game.
    view = arena.cat.request({"type": "open_game", "match_id": arena.theirs}, "snapshot")
    act = choose(view["view"], manual_flip=True, rng=random.Random(2))
    ack = arena.cat.request({"type": "action", "match_id": arena.theirs, "seq": view["seq"] + 1,
                             "action": act}, "ack", "reject")
    assert ack["type"] == "ack"
    progress, _ = arena.dan.until("progress")
    assert progress["match_id"] == arena.theirs
    assert all(f.get("match_id") in (None, arena.theirs) for f in arena.dan.received)
    # No server error anywhere.
    server = arena.cluster.servers[0]
    metrics = httpx.get(f"{server.http}/metrics").text
    for where in ("http", "ws"):
        assert f'spider_errors_total{{where="{where}"}} 0.0' in metrics
    assert "Traceback" not in arena.cluster.logs()


def test_a_deep_frame_is_refused_before_parsing(arena: Arena) -> None:
    [answer] = arena.ann.answers_to("[" * 5000 + "]" * 5000)
    assert answer == {"type": "error", "code": "frame_too_deep",
                      "message": "a frame may nest arrays and objects at most 8 deep"}


def test_another_players_match_is_refused(arena: Arena) -> None:
    [answer] = arena.ann.answers_to({"type": "action", "match_id": arena.theirs, "seq": 1,
                                     "action": {"op": "deal"}})
    assert answer["type"] == "error"
    assert answer["code"] == "not_seated"

