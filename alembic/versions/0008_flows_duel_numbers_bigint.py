"""solo_games.number and matches.play_number become BIGINT, checked 1 to 2**48 - 1: duels
draw their numbers from 1,000,000 to 2**48 - 1 (never from the 1-999,999 a player picks,
which a cheater can deal ahead in minutes), and a solo game starts on a duel's "play this
deal" number (docs/api.md, "Deal numbers of duels").

Downgrading narrows both back to INTEGER and 1-999,999: it fails on rows with a wider
number (delete or rewrite them first) rather than cutting numbers silently.

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WIDE = "BETWEEN 1 AND 281474976710655"
NARROW = "BETWEEN 1 AND 999999"


def upgrade() -> None:
    _change(sa.Integer(), sa.BigInteger(), WIDE)


def downgrade() -> None:
    _change(sa.BigInteger(), sa.Integer(), NARROW)


def _change(old: sa.types.TypeEngine[int], new: sa.types.TypeEngine[int], check: str) -> None:
    with op.batch_alter_table("solo_games", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_solo_games_number"), type_="check")
        batch_op.alter_column("number", existing_type=old, type_=new, existing_nullable=False)
        batch_op.create_check_constraint("number", f"number {check}")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_matches_play_number"), type_="check")
        batch_op.alter_column("play_number", existing_type=old, type_=new, existing_nullable=True)
        batch_op.create_check_constraint(
            "play_number", f"play_number IS NULL OR play_number {check}")
