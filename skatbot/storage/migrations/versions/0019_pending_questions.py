"""pending questions: what each asker was shown before a confirmation ("… ja", a button)

A new table; the nonces in chats.settings (delete_nonce, close_nonce, desk_nonce) are no
longer read and are removed, so an answer to a question asked before this version is
refused as not asked (ask again).

Revision ID: 0019
Revises: 0018
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

OLD_NONCES = ("delete_nonce", "close_nonce", "desk_nonce")


def upgrade() -> None:
    op.create_table(
        "pending_questions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("thing", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=64), nullable=False),
        sa.Column("what", sa.Text(), nullable=False),
        sa.Column("nonce", sa.String(length=16), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("chat_id", "user_id", "kind", name="uq_pending_questions_asker"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("pending_questions", schema=None) as batch_op:
        batch_op.create_index("ix_pending_questions_nonce", ["chat_id", "nonce"], unique=False)
    chats = sa.table("chats", sa.column("id", sa.BigInteger()), sa.column("settings", sa.Text()))
    bind = op.get_bind()
    for chat_id, raw in bind.execute(sa.select(chats.c.id, chats.c.settings)).all():
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            continue
        if isinstance(data, dict) and any(k in data for k in OLD_NONCES):
            kept = {k: v for k, v in data.items() if k not in OLD_NONCES}
            bind.execute(
                sa.update(chats).where(chats.c.id == chat_id).values(settings=json.dumps(kept))
            )


def downgrade() -> None:
    with op.batch_alter_table("pending_questions", schema=None) as batch_op:
        batch_op.drop_index("ix_pending_questions_nonce")
    op.drop_table("pending_questions")
