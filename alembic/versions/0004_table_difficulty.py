"""duel_tables.difficulty: tables whose matches are dealt easy, medium or hard deals
(docs/solo-and-daily.md section 8); "any" for the tables made before.

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("duel_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("difficulty", sa.String(length=6), nullable=False,
                                      server_default="any"))
        batch_op.create_check_constraint(
            "difficulty", "difficulty IN ('any', 'easy', 'medium', 'hard')")


def downgrade() -> None:
    with op.batch_alter_table("duel_tables", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_duel_tables_difficulty"), type_="check")
        batch_op.drop_column("difficulty")
