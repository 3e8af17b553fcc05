"""A small synchronous protocol client (websockets' sync client), for hypothesis tests."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

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
