"""A small synchronous protocol client (websockets' sync client), for hypothesis tests."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from app.settings import Settings

Frame = dict[str, Any]


@dataclass
class Account:
    id: int
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def signup(http: httpx.Client, name: str) -> Account:
    response = http.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    return Account(body["player"]["id"], body["player"]["name"], body["token"])


def seat(http: httpx.Client, owner: Account, guest: Account, **table: Any) -> int:
    body = {"preset": "duel", "suits": 1, "rated": False, **table}
    created = http.post("/api/tables", json=body, headers=owner.auth)
    assert created.status_code == 201, created.text
    joined = http.post(f"/api/tables/{created.json()['id']}/join", headers=guest.auth)
    assert joined.status_code == 200, joined.text
    return int(joined.json()["match_id"])


@dataclass
class SyncClient:
    ws: ClientConnection
    account: Account
    welcome: Frame
    received: list[Frame] = field(default_factory=list)

    @classmethod
    def open(cls, ws_url: str, account: Account, **headers: str) -> SyncClient:
        ws = connect(f"{ws_url}/ws", additional_headers=headers or None, max_size=2**22)
        ws.send(json.dumps({"type": "hello", "v": 1, "token": account.token}))
        welcome = json.loads(ws.recv(timeout=10))
        assert welcome["type"] == "welcome", welcome
        return cls(ws, account, welcome)

    def send(self, frame: Frame | str | bytes) -> None:
        self.ws.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))

    def recv(self, timeout: float = 10) -> Frame:
        frame: Frame = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(frame)
        return frame

    def until(self, *kinds: str, timeout: float = 10) -> tuple[Frame, list[Frame]]:
        """Frames up to the first of one of `kinds`: (that frame, the ones before it)."""
        before: list[Frame] = []
        while True:
            frame = self.recv(timeout)
            if frame["type"] in kinds:
                return frame, before
            before.append(frame)

    def answers_to(self, frame: Frame | str | bytes) -> list[Frame]:
        """Everything the server sends in answer to `frame` (fenced by a ping)."""
        self.send(frame)
        self.send({"type": "ping"})
        _, before = self.until("pong")
        return before

    def request(self, frame: Frame, *kinds: str) -> Frame:
        self.send(frame)
        answer, _ = self.until(*kinds)
        return answer

    def close(self) -> None:
        self.ws.close()


@dataclass
class Pace:
    """The server's message budget (settings ``ws_actions_per_second``, burst
    ``ws_action_burst``) kept on the client's side: a test driver sends as fast as the
    server allows, not at a fixed slow pace (a solution of 100 actions took 6 s at one
    per 60 ms). A tenth is kept in hand for the clocks' drift and the frames around."""

    rate: float
    burst: int
    tokens: float = 0.0
    at: float = field(default_factory=time.monotonic)

    @classmethod
    def of(cls, settings: Settings) -> Pace:
        """The budget of the sockets of a server run with ``settings``."""
        return cls(settings.ws_actions_per_second, settings.ws_action_burst)

    def __post_init__(self) -> None:
        self.rate *= 0.9
        self.burst = max(1, self.burst - 4)  # the hello, the open and a ping or two
        self.tokens = float(self.burst)

    def take(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.at = 1.0, time.monotonic()
        self.tokens -= 1


def play_solo_line(client: SyncClient, game_id: int, actions: Iterable[Any], pace: Pace
                   ) -> Frame:
    """Play ``actions`` (engine actions) in an opened solo or daily game, each answer
    awaited, until the last or the win; the last answer. Any refusal fails the test."""
    answer: Frame = {}
    for seq, action in enumerate(actions, start=1):
        pace.take()
        client.send({"type": "solo_action", "game_id": game_id, "seq": seq,
                     "action": action.to_json()})
        # The server may look for an auto-complete first: slow on a busy machine.
        answer, _ = client.until("solo_ack", "solo_reject", "solo_over", "error", timeout=90)
        assert answer["type"] in ("solo_ack", "solo_over"), answer
        if answer["type"] == "solo_over" or answer.get("status") == "won":
            break
    return answer


def rescue_until_offered(client: SyncClient, game_id: int, pace: Pace, most: int = 200
                         ) -> int:
    """Rescue an opened solo or daily game again and again, each answer awaited, until
    the server offers the auto-complete; the game's seq then. After a first rescue found
    a way out, each next one continues its verified line."""
    opened = client.request({"type": "solo_open", "game_id": game_id}, "solo_snapshot")
    seq, offered = opened["seq"], opened["auto_complete"]
    for _ in range(most):
        if offered:
            break
        pace.take()
        client.send({"type": "solo_rescue", "game_id": game_id, "seq": seq + 1})
        answer, _ = client.until("solo_assist", "solo_reject", "error", timeout=90)
        if answer.get("code") == "auto_complete_ready":
            break
        assert answer["type"] == "solo_assist" and answer["verdict"] == "way_out", answer
        seq, offered = answer["seq"], answer["auto_complete"]
    return int(seq)


def finish_by_rescues(client: SyncClient, game_id: int, pace: Pace, most: int = 200) -> Frame:
    """:func:`rescue_until_offered`, then the auto-complete played: the last answer (the
    game won)."""
    seq = rescue_until_offered(client, game_id, pace, most)
    pace.take()
    return client.request({"type": "solo_auto_complete", "game_id": game_id, "seq": seq + 1},
                          "solo_assist")
