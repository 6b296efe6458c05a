"""tournament season: several tournaments per place, one after the other

A place's tournaments are numbered (``number``); one ends with ``closed_at``; the next one
starts at the same place, so ``chat_id`` is no longer unique. A tournament has a counting
rule (``counting``). Participants arrive late (``from_series``) and leave early
(``left_from``, ``refunded``); every such change is a row of ``tournament_roster``. A table
remembers whether its forum topic is the bot's (``bot_topic``: a draw taken back closes it).

Revision ID: 0014
Revises: 0010
"""

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0012"
branch_labels = None
depends_on = None

# SQLite reflects the unique constraint of 0002 without a name: the batch copy names it.
_NAMES = {"uq": "uq_%(table_name)s_%(column_0_name)s"}


@contextmanager
def _tournaments_rebuilt() -> Iterator[None]:
    """SQLite drops a unique constraint by copying the table; dropping the old copy would
    cascade to every participant, series and result (foreign keys are on). So the copy runs
    with foreign keys off, which SQLite allows only between transactions: the work so far is
    committed, the copy is one transaction of its own, and the keys are checked after it."""
    if op.get_bind().dialect.name != "sqlite":
        yield
        return
    raw = op.get_bind().connection.dbapi_connection
    assert raw is not None
    if raw.in_transaction:
        raw.execute("COMMIT")
    raw.execute("PRAGMA foreign_keys=OFF")
    raw.execute("BEGIN IMMEDIATE")
    try:
        yield
        broken = raw.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"foreign keys broken by the copy: {broken[:5]}")
        raw.execute("COMMIT")
    except BaseException:
        raw.execute("ROLLBACK")
        raise
    finally:
        raw.execute("PRAGMA foreign_keys=ON")
        raw.execute("BEGIN IMMEDIATE")  # the migration's own transaction goes on


def _unique_name() -> str:
    if op.get_bind().dialect.name == "postgresql":
        return "tournaments_chat_id_key"
    return "uq_tournaments_chat_id"


def upgrade() -> None:
    with (
        _tournaments_rebuilt(),
        op.batch_alter_table("tournaments", naming_convention=_NAMES) as batch_op,
    ):
        batch_op.drop_constraint(_unique_name(), type_="unique")
        batch_op.add_column(
            sa.Column("number", sa.Integer(), nullable=False, server_default=sa.text("1"))
        )
        batch_op.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("closed_by", sa.BigInteger(), nullable=True))
        batch_op.create_index("ix_tournaments_chat_id", ["chat_id"], unique=False)
        batch_op.add_column(sa.Column("counting", sa.String(length=32), nullable=True))
    with op.batch_alter_table("tournament_participants") as batch_op:
        batch_op.add_column(
            sa.Column("from_series", sa.Integer(), nullable=False, server_default=sa.text("1"))
        )
        batch_op.add_column(sa.Column("left_from", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("refunded", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("tournament_tables") as batch_op:
        batch_op.add_column(
            sa.Column("bot_topic", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "tournament_roster",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("series", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("user_name", sa.String(length=128), nullable=True),
        sa.Column("update_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_tournament_roster_tournament_id", "tournament_roster", ["tournament_id"])


def downgrade() -> None:
    # Only the latest tournament of each place can stay (the old schema holds one).
    op.execute(
        "DELETE FROM tournaments WHERE id NOT IN (SELECT MAX(id) FROM tournaments GROUP BY chat_id)"
    )
    op.drop_index("ix_tournament_roster_tournament_id", table_name="tournament_roster")
    op.drop_table("tournament_roster")
    with op.batch_alter_table("tournament_tables") as batch_op:
        batch_op.drop_column("bot_topic")
    with op.batch_alter_table("tournament_participants") as batch_op:
        batch_op.drop_column("refunded")
        batch_op.drop_column("left_from")
        batch_op.drop_column("from_series")
    with (
        _tournaments_rebuilt(),
        op.batch_alter_table("tournaments", naming_convention=_NAMES) as batch_op,
    ):
        batch_op.drop_column("counting")
        batch_op.drop_index("ix_tournaments_chat_id")
        batch_op.drop_column("closed_by")
        batch_op.drop_column("closed_at")
        batch_op.drop_column("number")
        batch_op.create_unique_constraint(_unique_name(), ["chat_id"])
