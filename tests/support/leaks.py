"""The frame leak check: nothing hidden of a game in progress may appear in any frame.

Each game's true positions are rebuilt with the engine from its applied actions (the
replay record, fetched once the match is over). Then, for every frame received before
the match result:

- every ``view`` equals ``player_view`` of the true position it claims (its game, after
  ``view.actions`` actions): counts for face-down cards and the stock, nothing more;
- every card name sits where face-up cards belong (``up`` of a view, ``cards``/``card``
  of an event) and the event's cards are face up in the view that comes with it;
- no key names a deal, a layout, a seed, a deal number (nor `play`, the solo number that
  deals it again) or a stock list.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec

from app.engine.actions import action_from_json
from app.engine.game import push
from app.engine.state import GameState
from app.engine.view import player_view

CARD = re.compile(r"^[A23456789TJQK][shdc]$")
FORBIDDEN_KEYS = {"layout", "seed", "number", "generator", "deal", "tableau", "record", "play"}
CARD_KEYS = {"up", "cards", "card"}


def positions(start: GameState, moves: list[dict[str, Any]]) -> list[GameState]:
    states = [start]
    for move in moves:
        states.append(push(states[-1], action_from_json(move)))
    return states


def _walk(value: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _walk(inner, (*path, str(key)))
    elif isinstance(value, list):
        for inner in value:
            yield from _walk(inner, path)


def _visible(view: dict[str, Any]) -> Counter[str]:
    seen: Counter[str] = Counter()
    for column in view["columns"]:
        seen.update(column["up"])
    return seen


def _event_cards(events: list[dict[str, Any]]) -> Counter[str]:
    cards: Counter[str] = Counter()
    for event in events:
        cards.update(event.get("cards", []))
        if "card" in event:
            cards[event["card"]] += 1
    return cards


def check_frames(
    frames: list[tuple[int, dict[str, Any]]],
    states: dict[int, list[GameState]],
) -> int:
    """Check every frame received before the first ``match_result``; return how many."""
    checked = 0
    for recipient, frame in frames:
        if frame["type"] in ("match_result", "replay"):
            break
        checked += 1
        for path, value in _walk(frame, ()):
            key = path[-1] if path else ""
            assert key not in FORBIDDEN_KEYS, f"{key!r} in a frame of a game in progress: {frame}"
            if key == "stock" or key == "down":
                assert isinstance(value, int), f"{key} must be a count: {frame}"
            if isinstance(value, str) and CARD.match(value):
                assert key in CARD_KEYS, f"card {value} under {path} in {frame}"
        if "view" in frame and frame.get("view") is not None:
            owner = frame.get("player_id", recipient) if frame["type"] in (
                "snapshot", "watch") else recipient
            view = frame["view"]
            truth = states[owner][view["actions"]]
            assert view == msgspec.to_builtins(player_view(truth)), (
                f"view differs from the true position: {frame}")
            hidden_down = sum(len(column.down) for column in truth.columns)
            assert sum(column["down"] for column in view["columns"]) == hidden_down
            if frame.get("events"):
                # Cards of a run completed by this very action left the table face up.
                removed: Counter[str] = Counter()
                for event in frame["events"]:
                    if event["kind"] == "run_completed":
                        removed.update(f"{rank}{event['suit']}" for rank in "A23456789TJQK")
                allowed = _visible(view) + removed
                assert not _event_cards(frame["events"]) - allowed, (
                    f"an event names a card that is not face up: {frame}")
    return checked
