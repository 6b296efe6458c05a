"""table lists: a tournament table linked to the list it plays on; withdrawn results

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("series_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("list_id", sa.Integer(), nullable=True),
        sa.Column("signed", sa.Text(), nullable=False),
        sa.Column("reported", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["chat_id"], ["chats.id"]),
        sa.ForeignKeyConstraint(["series_id"], ["tournament_series.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        sa.UniqueConstraint("list_id"),
        sa.UniqueConstraint("series_id", "table_no"),
    )
    op.create_index("ix_tournament_tables_chat_id", "tournament_tables", ["chat_id"])
    op.create_index("ix_tournament_tables_series_id", "tournament_tables", ["series_id"])
    op.create_index("ix_tournament_tables_tournament_id", "tournament_tables", ["tournament_id"])
    with op.batch_alter_table("tournament_results", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("withdrawn", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_results", schema=None) as batch_op:
        batch_op.drop_column("withdrawn")
    op.drop_index("ix_tournament_tables_tournament_id", table_name="tournament_tables")
    op.drop_index("ix_tournament_tables_series_id", table_name="tournament_tables")
    op.drop_index("ix_tournament_tables_chat_id", table_name="tournament_tables")
    op.drop_table("tournament_tables")
