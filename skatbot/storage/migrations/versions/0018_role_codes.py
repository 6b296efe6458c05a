"""role codes and name claims: codes that grant a role go to one person; a name at a table is
linked only when the table confirms it

New tables ``role_codes`` (a captain's or a host's one-time code, bound to the person the
management named, with its expiry and use) and ``name_claims`` (``/ich NAME`` at a table,
waiting for the table's confirmation, and once confirmed the record that the link was made
with its consent: links in a table's chat made before, when /ich was free, sign nothing
there). The codes ``league_teams.captain_code`` and
``league_days.host_code`` were shown in the league's group, so anyone who read them could
take the role: they are voided here (the management names the person anew with
``/kapitaen TEAM`` or ``/ausrichter``); the columns stay, always NULL.

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "role_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("day_id", sa.Integer(), nullable=True),
        sa.Column("for_user_id", sa.BigInteger(), nullable=False),
        sa.Column("for_name", sa.String(length=128), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["league_teams.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["day_id"], ["league_days.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        sa.UniqueConstraint("token"),
        sqlite_autoincrement=True,
    )
    for column in ("league_id", "team_id", "day_id"):
        op.create_index(f"ix_role_codes_{column}", "role_codes", [column])
    op.create_table(
        "name_claims",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("user_name", sa.String(length=128), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_name_claims_chat_id", "name_claims", ["chat_id"])
    # Codes posted in a group are known to everyone who read it: void.
    op.execute("UPDATE league_teams SET captain_code = NULL")
    op.execute("UPDATE league_days SET host_code = NULL")


def downgrade() -> None:
    op.drop_index("ix_name_claims_chat_id", table_name="name_claims")
    op.drop_table("name_claims")
    for column in ("league_id", "team_id", "day_id"):
        op.drop_index(f"ix_role_codes_{column}", table_name="role_codes")
    op.drop_table("role_codes")
