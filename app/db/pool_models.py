"""The deal pool's deals kept across a restart (``app/services/deal_pool_store.py``).

A process's deal pool lives in memory; at stop it writes the deals it still holds here
and a starting process claims them (deleting the rows it takes), so the first 4-suit or
difficulty tables after a restart need not wait for the solver. Beside
``app.db.models`` (same ``Base``, same migrations) so neither module grows past the
layout's size limit.
"""

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, CheckConstraint, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class PooledDeal(Base):
    """One ready deal of a bin ``(suits, flavour)``: what ``DealChoice`` holds of it."""

    __tablename__ = "pooled_deals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    suits: Mapped[int] = mapped_column(Integer)
    flavour: Mapped[str] = mapped_column(String(8))  # "solvable" or a difficulty
    deal_number: Mapped[int] = mapped_column(BigInteger)
    generator_version: Mapped[int] = mapped_column(Integer)
    difficulty: Mapped[str | None] = mapped_column(String(8), default=None)
    play_number: Mapped[int | None] = mapped_column(BigInteger, default=None)
    play_solvable_only: Mapped[bool] = mapped_column(Boolean, default=False)
    saved_at: Mapped[datetime] = mapped_column(default=utcnow)
    __table_args__ = (
        CheckConstraint("suits IN (1, 2, 4)", name="suits"),
        CheckConstraint("flavour IN ('solvable', 'easy', 'medium', 'hard')", name="flavour"),
        Index("ix_pooled_deals_bin", "suits", "flavour", "id"),
    )


class SoloPoolDeal(Base):
    """One solo deal solved ahead of need (``app/services/solo_pool.py``): a random deal
    number and its solvable deal (mapping v1), kept until a solo start claims it."""

    __tablename__ = "solo_pool"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    suits: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)  # 1–999,999: a number a player may pick
    source: Mapped[int] = mapped_column(BigInteger)  # its solvable generator deal
    difficulty: Mapped[str] = mapped_column(String(8))
    made_at: Mapped[datetime] = mapped_column(default=utcnow)
    __table_args__ = (
        CheckConstraint("suits IN (1, 2, 4)", name="suits"),
        CheckConstraint("number BETWEEN 1 AND 999999", name="number"),
        Index("ix_solo_pool_suits", "suits", "id"),
    )
