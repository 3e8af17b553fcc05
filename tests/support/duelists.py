"""Bot duelists over the real protocol: play, record every frame, check nothing leaked."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.engine.record import record_from_json
from app.engine.state import GameState
from bench.bot import choose
from bench.client import DuelClient, Player
from tests.support.leaks import check_frames, positions


@dataclass
class Duelist:
    """One player's side of a duel, as far as the client knows it."""

    player: Player
    match_id: int
    client: DuelClient
    rng: random.Random
    view: dict[str, Any] = field(default_factory=dict)
    seq: int = 0
    acked: dict[int, dict[str, Any]] = field(default_factory=dict)  # seq -> ack
    history: list[DuelClient] = field(default_factory=list)  # every connection it used

    async def open(self) -> dict[str, Any]:
        snapshot = await self.client.open_game(self.match_id)
        self.view, self.seq = snapshot["view"], snapshot["seq"]
        return snapshot

    async def step(self) -> dict[str, Any]:
        """One bot action; an ack advances, a reject resyncs to the server's view."""
        action = choose(self.view, manual_flip=True, rng=self.rng) or {"op": "undo"}
        answer, _ = await self.client.act(self.match_id, self.seq + 1, action)
        if answer["type"] == "ack":
            self.acked[answer["seq"]] = answer
            self.view, self.seq = answer["view"], answer["seq"]
        elif answer["type"] == "reject" and answer.get("view") is not None:
            self.view, self.seq = answer["view"], answer["next_seq"] - 1
        return answer

    async def finish(self) -> dict[str, Any]:
        answer, _ = await self.client.request(
            {"type": "finish", "match_id": self.match_id, "seq": self.seq + 1}
        )
        return answer

    def frames(self) -> list[tuple[int, dict[str, Any]]]:
        return [(self.player.id, f) for c in [*self.history, self.client] for f in c.frames]


async def true_positions(client: DuelClient, match_id: int, player_ids: list[int]
                         ) -> dict[int, list[GameState]]:
    """Every position of every game of a finished match, rebuilt from its replay."""
    states = {}
    for player_id in player_ids:
        replay, _ = await client.request(
            {"type": "get_replay", "match_id": match_id, "player_id": player_id}
        )
        assert replay["type"] == "replay", replay
        record = record_from_json(replay["record"])
        states[player_id] = positions(record.start, replay["record"]["moves"])
    return states


def check_no_leak(duelists: list[Duelist], states: dict[int, list[GameState]]) -> int:
    """The frame leak check over each connection's frames (up to its match result)."""
    checked = 0
    for duelist in duelists:
        for client in [*duelist.history, duelist.client]:
            frames = [(duelist.player.id, f) for f in client.frames]
            checked += check_frames(frames, states)
    return checked
