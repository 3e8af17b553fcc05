"""matches.play_number and play_solvable_only: the 1–999,999 deal number (and the "solvable
only" option) a solo game deals the match's cards from ("play this deal" in the share
text; docs/web.md). NULL for the matches made before and for test layouts.

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("play_number", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("play_solvable_only", sa.Boolean(), nullable=True))
        batch_op.create_check_constraint(
            "play_number", "play_number IS NULL OR play_number BETWEEN 1 AND 999999")


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_matches_play_number"), type_="check")
        batch_op.drop_column("play_solvable_only")
        batch_op.drop_column("play_number")
