"""game nights: /spielabend's nights, their poll and the yes-votes

Two new tables.

Revision ID: 0021
Revises: 0020
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_nights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("telegram_chat_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.Integer(), nullable=False),
        sa.Column("is_forum", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("user_name", sa.String(length=64), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seed", sa.String(length=32), nullable=False),
        sa.Column("poll", sa.String(length=64), nullable=True),
        sa.Column("message_id", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("game_nights", schema=None) as batch_op:
        batch_op.create_index("ix_game_nights_chat", ["chat_id", "state"], unique=False)
        batch_op.create_index("ix_game_nights_poll", ["poll"], unique=False)
        batch_op.create_index("ix_game_nights_due", ["state", "starts_at"], unique=False)
    op.create_table(
        "game_night_votes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["night_id"], ["game_nights.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("game_night_votes", schema=None) as batch_op:
        batch_op.create_index("ix_game_night_votes_night", ["night_id", "user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("game_night_votes", schema=None) as batch_op:
        batch_op.drop_index("ix_game_night_votes_night")
    op.drop_table("game_night_votes")
    with op.batch_alter_table("game_nights", schema=None) as batch_op:
        batch_op.drop_index("ix_game_nights_due")
        batch_op.drop_index("ix_game_nights_poll")
        batch_op.drop_index("ix_game_nights_chat")
    op.drop_table("game_nights")
