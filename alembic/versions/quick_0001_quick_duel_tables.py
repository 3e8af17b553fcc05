"""duel_tables.quick: a quick-duel table (app/services/quick_duel.py), which the quick
matcher fills (never the lobby) and whose one match's unopened game ends at the table's
expiry; false for every other table.

Revision ID: quick_0001
Revises: fair_0002
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "quick_0001"
down_revision: str | None = "fair_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("duel_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("quick", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.create_index("ix_duel_tables_quick", ["quick", "status", "suits", "level"])


def downgrade() -> None:
    with op.batch_alter_table("duel_tables", schema=None) as batch_op:
        batch_op.drop_index("ix_duel_tables_quick")
        batch_op.drop_column("quick")
