"""game_actions.score, actions_count, time_used_ms: each logged action carries its game's
totals after it, so appending an action is one INSERT and no longer also an UPDATE of
the games row (issue 14, part 3: the row's statement is on every ack's path). While a
game is played its totals are those of its last logged action; the games row gets them
when the game ends, as before. Rows logged before this revision have none (NULL): their
games row still holds the totals, as it did.

Downgrading first copies the last logged totals of every game still being played into
its games row (what the writers before this revision kept there), then drops the columns.

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TOTALS = ("score", "actions_count", "time_used_ms")


def upgrade() -> None:
    # Nullable, no default: on PostgreSQL a change of the catalogue only, however long the log.
    with op.batch_alter_table("game_actions", schema=None) as batch_op:
        for column in TOTALS:
            batch_op.add_column(sa.Column(column, sa.Integer(), nullable=True))


def downgrade() -> None:
    for column in TOTALS:
        op.execute(
            f"UPDATE games SET {column} = COALESCE((SELECT a.{column} FROM game_actions AS a "
            f"WHERE a.game_id = games.id ORDER BY a.seq DESC LIMIT 1), {column}) "
            "WHERE status = 'playing'")
    with op.batch_alter_table("game_actions", schema=None) as batch_op:
        for column in TOTALS:
            batch_op.drop_column(column)
