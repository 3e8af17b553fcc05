"""Solo and daily games, their action log, badges and the daily streak cache (issue 13,
docs/solo-and-daily.md section 3).

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ONE_PLAYING = "kind = 'solo' AND status = 'playing'"


def _timestamp(name: str, *, nullable: bool) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "solo_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=5), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("suits", sa.Integer(), nullable=False),
        sa.Column("solvable_only", sa.Boolean(), nullable=False),
        sa.Column("relaxed", sa.Boolean(), nullable=False),
        sa.Column("source_deal", sa.BigInteger(), nullable=False),
        sa.Column("generator_version", sa.Integer(), nullable=False),
        sa.Column("mapping_version", sa.Integer(), nullable=True),
        sa.Column("difficulty", sa.String(length=6), nullable=True),
        sa.Column("daily_date", sa.Date(), nullable=True),
        sa.Column("status", sa.String(length=9), nullable=False),
        _timestamp("created_at", nullable=False),
        _timestamp("started_at", nullable=True),
        _timestamp("ended_at", nullable=True),
        sa.Column("actions_count", sa.Integer(), nullable=False),
        sa.Column("undos", sa.Integer(), nullable=False),
        sa.Column("hints", sa.Integer(), nullable=False),
        sa.Column("rescues", sa.Integer(), nullable=False),
        sa.Column("auto_completed", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("elapsed_ms", sa.Integer(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.CheckConstraint("kind IN ('solo', 'daily')", name=op.f("ck_solo_games_kind")),
        sa.CheckConstraint("number BETWEEN 1 AND 999999", name=op.f("ck_solo_games_number")),
        sa.CheckConstraint("suits IN (1, 2, 4)", name=op.f("ck_solo_games_suits")),
        sa.CheckConstraint("status IN ('playing', 'won', 'abandoned', 'expired')",
                           name=op.f("ck_solo_games_status")),
        sa.CheckConstraint("(kind = 'daily') = (daily_date IS NOT NULL)",
                           name=op.f("ck_solo_games_daily_date")),
        sa.CheckConstraint("(status = 'playing') = (ended_at IS NULL)",
                           name=op.f("ck_solo_games_ended")),
        sa.CheckConstraint("(status = 'won') = (points IS NOT NULL)",
                           name=op.f("ck_solo_games_points")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_solo_games_player_id_players"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_solo_games")),
        sa.UniqueConstraint("player_id", "daily_date", name="uq_solo_games_player_daily"),
    )
    with op.batch_alter_table("solo_games", schema=None) as batch_op:
        batch_op.create_index("ix_solo_games_one_playing", ["player_id"], unique=True,
                              sqlite_where=sa.text(ONE_PLAYING),
                              postgresql_where=sa.text(ONE_PLAYING))
        batch_op.create_index("ix_solo_games_history", ["player_id", "ended_at"])
        batch_op.create_index("ix_solo_games_points", ["status", "suits", "ended_at"])
        batch_op.create_index("ix_solo_games_daily", ["daily_date", "status", "elapsed_ms"])

    op.create_table(
        "solo_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("by", sa.String(length=13), nullable=False),
        _timestamp("at", nullable=False),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_solo_actions_seq")),
        sa.CheckConstraint("by IN ('player', 'rescue', 'auto_complete')",
                           name=op.f("ck_solo_actions_by")),
        sa.ForeignKeyConstraint(["game_id"], ["solo_games.id"],
                                name=op.f("fk_solo_actions_game_id_solo_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_solo_actions")),
        sa.UniqueConstraint("game_id", "seq", name="uq_solo_actions_game_seq"),
    )

    op.create_table(
        "player_badges",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        _timestamp("earned_at", nullable=False),
        sa.Column("solo_game_id", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("(solo_game_id IS NULL) <> (match_id IS NULL)",
                           name=op.f("ck_player_badges_one_source")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_player_badges_player_id_players"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["solo_game_id"], ["solo_games.id"],
                                name=op.f("fk_player_badges_solo_game_id_solo_games"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_player_badges_match_id_matches"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "code", name=op.f("pk_player_badges")),
    )

    op.create_table(
        "daily_streaks",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("run", sa.Integer(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("last_won", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_daily_streaks_player_id_players"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_daily_streaks")),
    )


def downgrade() -> None:
    op.drop_table("daily_streaks")
    op.drop_table("player_badges")
    op.drop_table("solo_actions")
    with op.batch_alter_table("solo_games", schema=None) as batch_op:
        batch_op.drop_index("ix_solo_games_daily")
        batch_op.drop_index("ix_solo_games_points")
        batch_op.drop_index("ix_solo_games_history")
        batch_op.drop_index("ix_solo_games_one_playing")
    op.drop_table("solo_games")
