"""Initial schema: players, friends, ignores, tables, seats, invites, matches, games,
action log and ratings.

Revision ID: 0001
Revises:
Create Date: 2026-11-29 14:30:15.209248
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("name_key", sa.String(length=24), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("name_key", name=op.f("uq_players_name_key")),
    )
    op.create_table(
        "duel_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(length=16), nullable=False),
        sa.Column("suits", sa.Integer(), nullable=False),
        sa.Column("time_limit_seconds", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=16), nullable=False),
        sa.Column("is_public", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('open', 'full', 'closed')", name=op.f("ck_duel_tables_status")
        ),
        sa.CheckConstraint("suits IN (1, 2, 4)", name=op.f("ck_duel_tables_suits")),
        sa.CheckConstraint("time_limit_seconds > 0", name=op.f("ck_duel_tables_time_limit")),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["players.id"],
            name=op.f("fk_duel_tables_owner_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_duel_tables")),
    )
    with op.batch_alter_table("duel_tables", schema=None) as batch_op:
        batch_op.create_index(
            "ix_duel_tables_lobby", ["status", "is_public", "suits"], unique=False
        )

    op.create_table(
        "friendships",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("friend_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("player_id <> friend_id", name=op.f("ck_friendships_not_self")),
        sa.ForeignKeyConstraint(
            ["friend_id"],
            ["players.id"],
            name=op.f("fk_friendships_friend_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_friendships_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "friend_id", name=op.f("pk_friendships")),
    )
    op.create_table(
        "ignores",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("ignored_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("player_id <> ignored_id", name=op.f("ck_ignores_not_self")),
        sa.ForeignKeyConstraint(
            ["ignored_id"],
            ["players.id"],
            name=op.f("fk_ignores_ignored_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_ignores_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "ignored_id", name=op.f("pk_ignores")),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("suits", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("suits IN (1, 2, 4)", name=op.f("ck_ratings_suits")),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "suits", name=op.f("pk_ratings")),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index("ix_ratings_leaderboard", ["suits", "rating"], unique=False)

    op.create_table(
        "invites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("inviter_id", sa.Integer(), nullable=False),
        sa.Column("invitee_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("responded_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'accepted', 'declined', 'cancelled')",
            name=op.f("ck_invites_status"),
        ),
        sa.ForeignKeyConstraint(
            ["invitee_id"],
            ["players.id"],
            name=op.f("fk_invites_invitee_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["inviter_id"],
            ["players.id"],
            name=op.f("fk_invites_inviter_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["duel_tables.id"],
            name=op.f("fk_invites_table_id_duel_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invites")),
        sa.UniqueConstraint("code", name=op.f("uq_invites_code")),
    )
    with op.batch_alter_table("invites", schema=None) as batch_op:
        batch_op.create_index("ix_invites_invitee", ["invitee_id", "status"], unique=False)

    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(length=16), nullable=False),
        sa.Column("suits", sa.Integer(), nullable=False),
        sa.Column("time_limit_seconds", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("deal_number", sa.Integer(), nullable=True),
        sa.Column("generator_version", sa.Integer(), nullable=True),
        sa.Column("layout", sa.JSON(), nullable=True),
        sa.Column("difficulty", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('playing', 'finished', 'aborted')", name=op.f("ck_matches_status")
        ),
        sa.CheckConstraint(
            "deal_number IS NOT NULL OR layout IS NOT NULL", name=op.f("ck_matches_has_deal")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["duel_tables.id"],
            name=op.f("fk_matches_table_id_duel_tables"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["winner_id"],
            ["players.id"],
            name=op.f("fk_matches_winner_id_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.UniqueConstraint("table_id", "ordinal", name="uq_matches_table_ordinal"),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wants_new_game", sa.Boolean(), nullable=False),
        sa.CheckConstraint("seat IN (0, 1)", name=op.f("ck_seats_seat")),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_seats_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["duel_tables.id"],
            name=op.f("fk_seats_table_id_duel_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "seat", name=op.f("pk_seats")),
        sa.UniqueConstraint("table_id", "player_id", name="uq_seats_table_player"),
    )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index("ix_seats_player", ["player_id"], unique=False)

    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("actions_count", sa.Integer(), nullable=False),
        sa.Column("time_used_ms", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.CheckConstraint(
            "status IN ('playing', 'won', 'stuck', 'finished', 'timed_out')",
            name=op.f("ck_games_status"),
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_games_match_id_matches"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_games_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("match_id", "player_id", name="uq_games_match_player"),
        sa.UniqueConstraint("match_id", "seat", name="uq_games_match_seat"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_player", ["player_id"], unique=False)

    op.create_table(
        "game_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_game_actions_seq")),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_game_actions_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_actions")),
        sa.UniqueConstraint("game_id", "seq", name="uq_game_actions_game_seq"),
    )


def downgrade() -> None:

    op.drop_table("game_actions")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_player")

    op.drop_table("games")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("ix_seats_player")

    op.drop_table("seats")
    op.drop_table("matches")
    with op.batch_alter_table("invites", schema=None) as batch_op:
        batch_op.drop_index("ix_invites_invitee")

    op.drop_table("invites")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_ratings_leaderboard")

    op.drop_table("ratings")
    op.drop_table("ignores")
    op.drop_table("friendships")
    with op.batch_alter_table("duel_tables", schema=None) as batch_op:
        batch_op.drop_index("ix_duel_tables_lobby")

    op.drop_table("duel_tables")
    op.drop_table("players")
