"""pooled_deals: the deal pool's ready deals kept across a restart, so the first 4-suit
and difficulty tables after a restart no longer wait for the solver (docs/operations.md,
"Shutdown"). A process writes what its pool holds at stop; a
starting process claims (deletes) what it takes.

Revision ID: 0010
Revises: 0009
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pooled_deals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("suits", sa.Integer(), nullable=False),
        sa.Column("flavour", sa.String(length=8), nullable=False),
        sa.Column("deal_number", sa.BigInteger(), nullable=False),
        sa.Column("generator_version", sa.Integer(), nullable=False),
        sa.Column("difficulty", sa.String(length=8), nullable=True),
        sa.Column("play_number", sa.BigInteger(), nullable=True),
        sa.Column("play_solvable_only", sa.Boolean(), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("suits IN (1, 2, 4)", name=op.f("ck_pooled_deals_suits")),
        sa.CheckConstraint("flavour IN ('solvable', 'easy', 'medium', 'hard')",
                           name=op.f("ck_pooled_deals_flavour")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pooled_deals")),
    )
    op.create_index("ix_pooled_deals_bin", "pooled_deals", ["suits", "flavour", "id"])


def downgrade() -> None:
    op.drop_index("ix_pooled_deals_bin", table_name="pooled_deals")
    op.drop_table("pooled_deals")
