"""people: who is who in a place (/ich, /spieler) - persons, their spellings and accounts

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "people",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("user_name", sa.String(length=128), nullable=True),
        sa.Column("merged_into", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_people_chat_id"), ["chat_id"], unique=False)
    op.create_table(
        "person_names",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["person_id"], ["people.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("person_names", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_person_names_chat_id"), ["chat_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_person_names_person_id"), ["person_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("person_names", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_person_names_person_id"))
        batch_op.drop_index(batch_op.f("ix_person_names_chat_id"))
    op.drop_table("person_names")
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_people_chat_id"))
    op.drop_table("people")
