"""table invites: the long single-use code of a table's deep link

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invite", sa.String(length=32), nullable=True))
    op.create_index("ix_tournament_tables_invite", "tournament_tables", ["invite"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tournament_tables_invite", table_name="tournament_tables")
    with op.batch_alter_table("tournament_tables", schema=None) as batch_op:
        batch_op.drop_column("invite")
