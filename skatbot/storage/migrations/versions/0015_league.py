"""league: leagues with teams and players, match days, line-ups, results and table lists

New tables only; every one below ``leagues`` goes with it (ON DELETE CASCADE).

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def _id() -> sa.Column[int]:
    return sa.Column("id", sa.Integer(), nullable=False)


def _created() -> sa.Column[object]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "leagues",
        _id(),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_by_name", sa.String(length=128), nullable=True),
        _created(),
        sa.Column("series_per_day", sa.Integer(), nullable=False),
        sa.Column("games_3", sa.Integer(), nullable=False),
        sa.Column("games_4", sa.Integer(), nullable=False),
        sa.Column("min_share", sa.Integer(), nullable=False),
        sa.Column("lost_fee_cents", sa.Integer(), nullable=False),
        sa.Column("ranking_order", sa.String(length=16), nullable=False),
        sa.Column("substitutions", sa.String(length=16), nullable=False),
        sa.Column("match_points_per_team", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["chat_id"], ["chats.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_leagues_chat_id", "leagues", ["chat_id"])
    op.create_table(
        "league_days",
        _id(),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("venue", sa.String(length=64), nullable=True),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("seated", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        _created(),
        sa.Column("approved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("approved_by", sa.BigInteger(), nullable=True),
        sa.Column("play_date", sa.Date(), nullable=True),
        sa.Column("host_code", sa.String(length=16), nullable=True),
        sa.Column("host_chat_id", sa.BigInteger(), nullable=True),
        sa.Column("host_user_id", sa.BigInteger(), nullable=True),
        sa.Column("host_name", sa.String(length=128), nullable=True),
        sa.Column("confirmed", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("league_id", "number"),
        sa.UniqueConstraint("host_code"),
    )
    op.create_index("ix_league_days_league_id", "league_days", ["league_id"])
    op.create_index("ix_league_days_host_chat_id", "league_days", ["host_chat_id"])
    op.create_table(
        "league_teams",
        _id(),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("captain_user_id", sa.BigInteger(), nullable=True),
        sa.Column("captain_name", sa.String(length=128), nullable=True),
        sa.Column("captain_code", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("captain_code"),
        sa.UniqueConstraint("league_id", "position"),
    )
    op.create_index("ix_league_teams_league_id", "league_teams", ["league_id"])
    op.create_table(
        "league_day_teams",
        _id(),
        sa.Column("day_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("appeared", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["day_id"], ["league_days.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["league_teams.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("day_id", "team_id"),
    )
    op.create_index("ix_league_day_teams_day_id", "league_day_teams", ["day_id"])
    op.create_table(
        "league_lineups",
        _id(),
        sa.Column("day_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("from_series", sa.Integer(), nullable=False),
        sa.Column("from_game", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        _created(),
        sa.ForeignKeyConstraint(["day_id"], ["league_days.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["league_teams.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_league_lineups_day_id", "league_lineups", ["day_id"])
    op.create_table(
        "league_players",
        _id(),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("substitute", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(["team_id"], ["league_teams.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_league_players_team_id", "league_players", ["team_id"])
    op.create_table(
        "league_results",
        _id(),
        sa.Column("day_id", sa.Integer(), nullable=False),
        sa.Column("series", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("game_points", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("update_id", sa.BigInteger(), nullable=True),
        _created(),
        sa.ForeignKeyConstraint(["day_id"], ["league_days.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_league_results_day_id", "league_results", ["day_id"])
    op.create_table(
        "league_tables",
        _id(),
        sa.Column("day_id", sa.Integer(), nullable=False),
        sa.Column("series", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("list_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["day_id"], ["league_days.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        sa.UniqueConstraint("day_id", "series", "table_no"),
        sa.UniqueConstraint("list_id"),
    )
    op.create_index("ix_league_tables_day_id", "league_tables", ["day_id"])


def downgrade() -> None:
    for table, column in (
        ("league_tables", "day_id"),
        ("league_results", "day_id"),
        ("league_players", "team_id"),
        ("league_lineups", "day_id"),
        ("league_day_teams", "day_id"),
        ("league_teams", "league_id"),
        ("league_days", "host_chat_id"),
        ("league_days", "league_id"),
        ("leagues", "chat_id"),
    ):
        op.drop_index(f"ix_{table}_{column}", table_name=table)
        if (table, column) != ("league_days", "host_chat_id"):
            op.drop_table(table)
