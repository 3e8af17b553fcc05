"""solo_pool: solo deals solved ahead of need, in the database (write-through), so a
random solvable solo start (4 suits above all) needs no solver, even right after a
restart (app/services/solo_pool.py).

Revision ID: fair_0002
Revises: fair_0001
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "fair_0002"
down_revision: str | None = "fair_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "solo_pool",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("suits", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("source", sa.BigInteger(), nullable=False),
        sa.Column("difficulty", sa.String(length=8), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("suits IN (1, 2, 4)", name=op.f("ck_solo_pool_suits")),
        sa.CheckConstraint("number BETWEEN 1 AND 999999", name=op.f("ck_solo_pool_number")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_solo_pool")),
    )
    op.create_index("ix_solo_pool_suits", "solo_pool", ["suits", "id"])


def downgrade() -> None:
    op.drop_index("ix_solo_pool_suits", table_name="solo_pool")
    op.drop_table("solo_pool")
