"""live pages: the hall's read-only link of a tournament (/leinwand)

One new table.

Revision ID: 0022
Revises: 0021
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_pages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("live_pages", schema=None) as batch_op:
        batch_op.create_index("ix_live_pages_token", ["token"], unique=True)
        batch_op.create_index(
            "ix_live_pages_tournament", ["tournament_id", "revoked_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("live_pages", schema=None) as batch_op:
        batch_op.drop_index("ix_live_pages_tournament")
        batch_op.drop_index("ix_live_pages_token")
    op.drop_table("live_pages")
