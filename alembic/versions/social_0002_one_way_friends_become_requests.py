"""Friends are mutual everywhere: every one-way friendship left from before (Ann keeps Bob
in her list, Bob does not keep Ann) becomes Ann's friend request to Bob, which Bob sees
and accepts or declines. Nobody stays on a list without having said yes: a one-way
friend could watch the other's online flag and invite them directly. Rows between two
players where an ignore stands are dropped, as an ignore ends requests.

Downgrade turns waiting requests back into one-way friendships (the state before).

Revision ID: social_0002
Revises: social_0001
"""

from collections.abc import Sequence

from alembic import op

revision: str = "social_0002"
down_revision: str | None = "social_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ONE_WAY = """
    FROM friendships AS f
    WHERE NOT EXISTS (SELECT 1 FROM friendships AS back
                      WHERE back.player_id = f.friend_id AND back.friend_id = f.player_id)
"""
IGNORED = """
    EXISTS (SELECT 1 FROM ignores AS i
            WHERE (i.player_id = f.player_id AND i.ignored_id = f.friend_id)
               OR (i.player_id = f.friend_id AND i.ignored_id = f.player_id))
"""


def upgrade() -> None:
    op.execute(
        "INSERT INTO friend_requests (player_id, invitee_id, created_at) "
        f"SELECT f.player_id, f.friend_id, f.created_at {ONE_WAY} AND NOT {IGNORED} "
        "AND NOT EXISTS (SELECT 1 FROM friend_requests AS r "
        "WHERE r.player_id = f.player_id AND r.invitee_id = f.friend_id)")
    op.execute(
        "DELETE FROM friendships WHERE (player_id, friend_id) IN "
        f"(SELECT f.player_id, f.friend_id {ONE_WAY})")


def downgrade() -> None:
    op.execute(
        "INSERT INTO friendships (player_id, friend_id, created_at) "
        "SELECT r.player_id, r.invitee_id, r.created_at FROM friend_requests AS r "
        "WHERE NOT EXISTS (SELECT 1 FROM friendships AS f "
        "WHERE f.player_id = r.player_id AND f.friend_id = r.invitee_id)")
    op.execute("DELETE FROM friend_requests")
