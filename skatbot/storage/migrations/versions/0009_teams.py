"""teams: a participant's team, the team ranking's mode, the teams a series' draw used

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Everything nullable: tournaments from before have no teams and rank teams by the sum.
    with op.batch_alter_table("tournament_participants", schema=None) as batch_op:
        batch_op.add_column(sa.Column("team", sa.String(length=64), nullable=True))
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("team_best", sa.Integer(), nullable=True))
    with op.batch_alter_table("tournament_series", schema=None) as batch_op:
        batch_op.add_column(sa.Column("teams", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_series", schema=None) as batch_op:
        batch_op.drop_column("teams")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("team_best")
    with op.batch_alter_table("tournament_participants", schema=None) as batch_op:
        batch_op.drop_column("team")
