"""The assists a solo or daily game used, and when (docs/points.md, "Fair play").

Every hint, rescue, undo-to-winnable and auto-complete adds one ``solo_assists`` row in
the transaction that answers it, and the game's ``assisted`` flag (what the boards
filter on) follows :func:`app.rewards.fair_play.fair_play`. The row counters
``hints``/``rescues``/``auto_completed`` stay as they were (points and older readers
use them); this log says when, at which position, and holds undo-to-winnable too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.solo_models import SoloAssistEntry, SoloGame
from app.rewards.fair_play import (
    ASSIST_KINDS,
    AssistCounts,
    AssistKindError,
    FairPlay,
    assisting,
    fair_play,
)


async def record_assist(*, session: AsyncSession, game: SoloGame, kind: str, at: datetime,
                        seq: int, actions: int = 0) -> SoloAssistEntry:
    """Log one assist of ``game`` (the caller commits, with the answer it gives).

    ``kind``: ``hint``, ``rescue``, ``undo_to_winnable`` or ``auto_complete``.
    ``seq``: the game's action count when the player asked (0 at the deal).
    ``actions``: how many actions the assist played for the player (0 for a hint, a
    rescue that found no way out; an undo-to-winnable's undos). A coroutine (nothing is
    awaited today) so that a future flush needs no change at the call sites."""
    if kind not in ASSIST_KINDS:
        raise AssistKindError(f"not an assist kind: {kind!r}")
    row = SoloAssistEntry(game_id=game.id, seq=seq, kind=kind, actions=actions, at=at)
    session.add(row)
    if kind == "undo_to_winnable":
        game.undo_to_winnable += 1  # hints, rescues: their callers count them (points)
    if assisting(kind):
        game.assisted = True
    return row


async def assists_of(*, session: AsyncSession, game_id: int) -> list[SoloAssistEntry]:
    """The game's assists in the order they were given."""
    return list(await session.scalars(
        select(SoloAssistEntry).where(SoloAssistEntry.game_id == game_id)
        .order_by(SoloAssistEntry.id)))


def counts_of(rows: Sequence[SoloAssistEntry]) -> AssistCounts:
    return AssistCounts.of(row.kind for row in rows)


def verdict_of(rows: Sequence[SoloAssistEntry]) -> FairPlay:
    return fair_play(counts_of(rows))


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def assists_json(rows: Sequence[SoloAssistEntry]) -> dict[str, Any]:
    """The game view's ``assists``: the verdict, the counts and each assist in order."""
    counts = counts_of(rows)
    return {"assisted": fair_play(counts).assisted, "counts": counts.to_json(),
            "log": [{"kind": row.kind, "seq": row.seq, "actions": row.actions,
                     "at": _iso(row.at)} for row in rows]}
