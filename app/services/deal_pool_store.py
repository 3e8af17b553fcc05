"""The deal pool's deals across a restart: written at stop, claimed at start.

A pool holds a few solved deals per bin (``app/services/deal_pool.py``); a 4-suit or
difficulty bin takes the solver minutes to fill, and until then a table of that kind
waits up to ``deal_pool_wait_seconds`` at its start. So a stopping process saves what
its pool still holds and a starting one claims up to its bins' sizes, oldest first.
Claiming deletes the rows it takes (in the claiming transaction), so no deal is handed
to two processes; what no process claims stays for the next start. The saved deals are
the server's own, never shown to a player (the table is private, as the match deals are).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.games import DealChoice
from app.db.pool_models import PooledDeal
from app.services.deal_pool import Bin


async def save_ready(*, session: AsyncSession, ready: Iterable[tuple[Bin, DealChoice]]
                     ) -> int:
    """Keep ``ready`` for the next start; how many rows were written. Commits. A deal with
    a stored layout instead of a number (never one of the pool's) is not kept."""
    rows = [PooledDeal(suits=suits, flavour=flavour, deal_number=choice.deal_number,
                       generator_version=choice.generator_version,
                       difficulty=choice.difficulty, play_number=choice.play_number,
                       play_solvable_only=choice.play_solvable_only)
            for (suits, flavour), choice in ready
            if choice.layout is None and choice.deal_number is not None
            and choice.generator_version is not None]
    session.add_all(rows)
    await session.commit()
    return len(rows)


async def claim_saved(*, session: AsyncSession, sizes: Mapping[Bin, int]
                      ) -> list[tuple[Bin, DealChoice]]:
    """Up to ``sizes[bin]`` saved deals of each bin, oldest first, deleted as they are
    taken. Commits. Two processes claiming at once each get rows of their own: on
    PostgreSQL the rows another claim has locked are skipped (SKIP LOCKED); SQLite
    runs one writing transaction at a time."""
    claimed: list[tuple[Bin, DealChoice]] = []
    for (suits, flavour), size in sizes.items():
        ids = select(PooledDeal.id).where(
            PooledDeal.suits == suits, PooledDeal.flavour == flavour,
        ).order_by(PooledDeal.id).limit(size).with_for_update(skip_locked=True)
        taken = await session.scalars(
            delete(PooledDeal).where(PooledDeal.id.in_(ids)).returning(PooledDeal))
        claimed.extend(((suits, flavour), as_choice(row)) for row in taken)
    await session.commit()
    return claimed


def as_choice(row: PooledDeal) -> DealChoice:
    return DealChoice(deal_number=row.deal_number, generator_version=row.generator_version,
                      difficulty=row.difficulty, play_number=row.play_number,
                      play_solvable_only=row.play_solvable_only)
