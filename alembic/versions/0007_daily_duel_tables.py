"""duel_tables.daily_date: a daily-duel table, whose one match deals that day's daily deal
(docs/solo-and-daily.md, "The daily duel"); NULL for every other table.

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("duel_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("daily_date", sa.Date(), nullable=True))
        batch_op.create_index("ix_duel_tables_daily", ["daily_date", "status", "level"])


def downgrade() -> None:
    with op.batch_alter_table("duel_tables", schema=None) as batch_op:
        batch_op.drop_index("ix_duel_tables_daily")
        batch_op.drop_column("daily_date")
