"""games.status: no "stuck" any more — nothing ever ended a duel game that way (a game
with no move left is finished by its player or times out), and the answers never said it.
A row that says it anyway becomes "finished" (ended early, the nearest true word).

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WITH_STUCK = "status IN ('playing', 'won', 'stuck', 'finished', 'timed_out')"
WITHOUT_STUCK = "status IN ('playing', 'won', 'finished', 'timed_out')"


def _check(rule: str) -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_games_status"), type_="check")
        batch_op.create_check_constraint("status", rule)


def upgrade() -> None:
    op.execute("UPDATE games SET status = 'finished' WHERE status = 'stuck'")
    _check(WITHOUT_STUCK)


def downgrade() -> None:
    _check(WITH_STUCK)
