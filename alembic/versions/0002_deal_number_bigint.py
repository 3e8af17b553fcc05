"""matches.deal_number becomes BIGINT: solvable-deal mappings name generator deals up to
2**48.

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.alter_column("deal_number", existing_type=sa.Integer(),
                              type_=sa.BigInteger(), existing_nullable=True)


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.alter_column("deal_number", existing_type=sa.BigInteger(),
                              type_=sa.Integer(), existing_nullable=True)
