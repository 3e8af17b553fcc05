"""solo_assists: every assist a solo or daily game used, and when (hint, rescue,
undo-to-winnable, auto-complete); solo_games.assisted caches the fair-play verdict the
boards filter on, and solo_games.undo_to_winnable counts those undos (docs/points.md, "Fair play"). Games played before it are assisted when
they asked a hint or a rescue played for them (the counters said so already).

Revision ID: fair_0001
Revises: 0010
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "fair_0001"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "solo_assists",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("seq >= 0", name=op.f("ck_solo_assists_seq")),
        sa.CheckConstraint("actions >= 0", name=op.f("ck_solo_assists_actions")),
        sa.CheckConstraint(
            "kind IN ('hint', 'rescue', 'undo_to_winnable', 'auto_complete')",
            name=op.f("ck_solo_assists_kind")),
        sa.ForeignKeyConstraint(["game_id"], ["solo_games.id"], ondelete="CASCADE",
                                name=op.f("fk_solo_assists_game_id_solo_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_solo_assists")),
    )
    op.create_index("ix_solo_assists_game", "solo_assists", ["game_id", "id"])
    op.add_column("solo_games", sa.Column("assisted", sa.Boolean(), nullable=False,
                                          server_default=sa.false()))
    op.add_column("solo_games", sa.Column("undo_to_winnable", sa.Integer(), nullable=False,
                                          server_default="0"))
    op.execute("UPDATE solo_games SET assisted = (hints > 0 OR rescues > 0)")


def downgrade() -> None:
    with op.batch_alter_table("solo_games") as batch:
        batch.drop_column("undo_to_winnable")
        batch.drop_column("assisted")
    op.drop_index("ix_solo_assists_game", table_name="solo_assists")
    op.drop_table("solo_assists")
