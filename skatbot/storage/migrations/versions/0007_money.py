"""money: stakes of a chat's lists, a tournament's fees and prizes

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "money_settings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("chat_id", sa.BigInteger(), sa.ForeignKey("chats.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("from_list", sa.Integer(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("update_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_money_settings_chat_id", "money_settings", ["chat_id"])


def downgrade() -> None:
    op.drop_index("ix_money_settings_chat_id", table_name="money_settings")
    op.drop_table("money_settings")
