"""tournament season: several tournaments per place, one after the other

A place's tournaments are numbered (``number``); one ends with ``closed_at``; the next one
starts at the same place, so ``chat_id`` is no longer unique.

Revision ID: 0014
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0010"
branch_labels = None
depends_on = None

# SQLite reflects the unique constraint of 0002 without a name: the batch copy names it.
_NAMES = {"uq": "uq_%(table_name)s_%(column_0_name)s"}


def _unique_name() -> str:
    if op.get_bind().dialect.name == "postgresql":
        return "tournaments_chat_id_key"
    return "uq_tournaments_chat_id"


def upgrade() -> None:
    with op.batch_alter_table("tournaments", naming_convention=_NAMES) as batch_op:
        batch_op.drop_constraint(_unique_name(), type_="unique")
        batch_op.add_column(
            sa.Column("number", sa.Integer(), nullable=False, server_default=sa.text("1"))
        )
        batch_op.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("closed_by", sa.BigInteger(), nullable=True))
        batch_op.create_index("ix_tournaments_chat_id", ["chat_id"], unique=False)


def downgrade() -> None:
    # Only the latest tournament of each place can stay (the old schema holds one).
    op.execute(
        "DELETE FROM tournaments WHERE id NOT IN (SELECT MAX(id) FROM tournaments GROUP BY chat_id)"
    )
    with op.batch_alter_table("tournaments", naming_convention=_NAMES) as batch_op:
        batch_op.drop_index("ix_tournaments_chat_id")
        batch_op.drop_column("closed_by")
        batch_op.drop_column("closed_at")
        batch_op.drop_column("number")
        batch_op.create_unique_constraint(_unique_name(), ["chat_id"])
