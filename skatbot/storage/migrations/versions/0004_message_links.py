"""message links: the user message that booked a row and the bot's reply (edited entries)

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "message_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("update_id", sa.BigInteger(), nullable=False),
        sa.Column("reply_message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("message_links", schema=None) as batch_op:
        batch_op.create_index(
            "ix_message_links_chat_message", ["chat_id", "message_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("message_links", schema=None) as batch_op:
        batch_op.drop_index("ix_message_links_chat_message")
    op.drop_table("message_links")
