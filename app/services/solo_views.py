"""What a solo or daily game looks like from outside: the REST view (its frames:
``app/services/solo_frames.py``).

One place decides what is hidden while a game is in progress (docs/solo-and-daily.md,
section 10): the generator deal always, and a daily's number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.db.solo_models import SoloAssistEntry, SoloGame
from app.services.solo_assists import assists_json
from app.services.solo_store import breakdown_of, options_of

Payload = dict[str, Any]


def iso_date(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def revealed_number(game: SoloGame) -> int | None:
    """The deal number shown: a daily's only once it is over."""
    return None if game.kind == "daily" and game.status == "playing" else game.number


def revealed_source(game: SoloGame) -> int | None:
    return None if game.status == "playing" else game.source_deal


def assist_counts(game: SoloGame) -> Payload:
    """What the result says of the game's assists ("Assisted: 3 hints, 1 rescue"):
    hints asked, rescues that played, undos to the last winnable position, and whether
    the auto-complete finished it (app/rewards/fair_play.py decides ``assisted``)."""
    return {"hints": game.hints, "rescues": game.rescues,
            "undo_to_winnable": game.undo_to_winnable,
            "auto_complete": int(game.auto_completed)}


def game_json(game: SoloGame, player_name: str,
              assists: Sequence[SoloAssistEntry] | None = None) -> Payload:
    """The ``SoloGame`` REST object; ``assists`` (the game's log, a single game's view)
    adds ``assist_log``, each assist with its kind, position and time."""
    options = options_of(game)
    breakdown = breakdown_of(game)
    return {
        "id": game.id, "player_id": game.player_id, "player_name": player_name,
        "kind": game.kind, "number": revealed_number(game),
        "daily_date": iso_date(game.daily_date), "options": options.to_json(),
        "rules": options.rules().to_json(), "difficulty": game.difficulty,
        "status": game.status, "created_at": game.created_at, "started_at": game.started_at,
        "ended_at": game.ended_at, "actions": game.actions_count, "undos": game.undos,
        "hints": game.hints, "rescues": game.rescues, "auto_completed": game.auto_completed,
        "score": game.score, "elapsed_ms": game.elapsed_ms, "points": game.points,
        "points_breakdown": None if breakdown is None else breakdown.to_json(),
        "source_deal": revealed_source(game),
        "assisted": game.assisted, "assists": assist_counts(game),
        "assist_log": None if assists is None else assists_json(assists)["log"],
    }
