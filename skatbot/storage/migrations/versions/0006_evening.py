"""evening: a list started with /weiter remembers the list it continues

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Lists from before stay unlinked: each is an evening of its own for /abend.
    with op.batch_alter_table("lists", schema=None) as batch_op:
        batch_op.add_column(sa.Column("continues", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("lists", schema=None) as batch_op:
        batch_op.drop_column("continues")
