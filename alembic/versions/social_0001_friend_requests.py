"""friend_requests: friends are mutual (issue 25). A player asks another; accepted, the
friendship is written both ways (two ``friendships`` rows) and the request deleted;
declined or withdrawn, deleted. Friendships already in the table stay as they are
(one-way rows from before; removing a friend now removes both sides).

Revision ID: social_0001
Revises: quick_0001
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "social_0001"
down_revision: str | None = "quick_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "friend_requests",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("invitee_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("player_id <> invitee_id",
                           name=op.f("ck_friend_requests_not_self")),
        sa.ForeignKeyConstraint(["invitee_id"], ["players.id"],
                                name=op.f("fk_friend_requests_invitee_id_players"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_friend_requests_player_id_players"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "invitee_id", name=op.f("pk_friend_requests")),
    )
    op.create_index("ix_friend_requests_invitee", "friend_requests", ["invitee_id"])


def downgrade() -> None:
    op.drop_index("ix_friend_requests_invitee", table_name="friend_requests")
    op.drop_table("friend_requests")
