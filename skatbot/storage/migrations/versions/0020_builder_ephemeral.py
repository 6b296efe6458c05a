"""game builders shown as an ephemeral message: its ephemeral id

A builder opened by a tap goes to its owner alone where Telegram takes it (Bot API 10.2): its
message has no ``message_id`` then, but an ``ephemeral_message_id`` (with the owner as its
receiver). Null for a public builder, as for every builder before this version.

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("builders", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ephemeral_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("builders", schema=None) as batch_op:
        batch_op.drop_column("ephemeral_id")
