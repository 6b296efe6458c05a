"""foreign keys: a deletion takes everything that points at what it deletes; ids never reused

Every column that names another table's row has a foreign key with its ON DELETE: CASCADE
for what belongs to the row (a list's rows, a place's lists), SET NULL for a link (a table's
list, the list a list continues, the person a person was merged into). Before, a table's
``list_id`` kept the id of a deleted list, and SQLite gave that id to the next list made
anywhere, which then reported as the table.

1. Dangling links are cleaned first, as their ON DELETE would have: a link is set to NULL,
   a row that belongs to something gone is deleted (until nothing more is found).
2. SQLite: every table with an integer surrogate key is rebuilt with AUTOINCREMENT (and the
   foreign keys); the highest id that anything named is taken as used, so not even a
   dangling link's id comes back. PostgreSQL's sequences never reuse; it gets the keys.
3. The new referring columns are indexed: deleting a row looks up the rows that name it.

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

CASCADE, SET_NULL = "CASCADE", "SET NULL"

# (table, column, referred table, ON DELETE): every foreign key from this revision on.
FOREIGN_KEYS = (
    ("lists", "chat_id", "chats", CASCADE),
    ("lists", "continues", "lists", SET_NULL),
    ("players", "list_id", "lists", CASCADE),
    ("rows", "list_id", "lists", CASCADE),
    ("rows", "target", "rows", CASCADE),
    ("builders", "chat_id", "chats", CASCADE),
    ("builders", "list_id", "lists", CASCADE),
    ("builders", "target_row", "rows", CASCADE),
    ("money_settings", "chat_id", "chats", CASCADE),
    ("people", "merged_into", "people", SET_NULL),
    ("person_names", "person_id", "people", CASCADE),
    ("tournaments", "chat_id", "chats", CASCADE),
    ("tournament_participants", "tournament_id", "tournaments", CASCADE),
    ("tournament_roster", "tournament_id", "tournaments", CASCADE),
    ("tournament_series", "tournament_id", "tournaments", CASCADE),
    ("tournament_results", "series_id", "tournament_series", CASCADE),
    ("tournament_tables", "chat_id", "chats", CASCADE),
    ("tournament_tables", "tournament_id", "tournaments", CASCADE),
    ("tournament_tables", "series_id", "tournament_series", CASCADE),
    ("tournament_tables", "list_id", "lists", SET_NULL),
    ("leagues", "chat_id", "chats", CASCADE),
    ("league_teams", "league_id", "leagues", CASCADE),
    ("league_players", "team_id", "league_teams", CASCADE),
    ("league_days", "league_id", "leagues", CASCADE),
    ("league_day_teams", "day_id", "league_days", CASCADE),
    ("league_day_teams", "team_id", "league_teams", CASCADE),
    ("league_lineups", "day_id", "league_days", CASCADE),
    ("league_lineups", "team_id", "league_teams", CASCADE),
    ("league_results", "day_id", "league_days", CASCADE),
    ("league_tables", "day_id", "league_days", CASCADE),
    ("league_tables", "list_id", "lists", SET_NULL),
)
# The keys of 0015 this revision changes: (table, column) -> their ON DELETE then (None:
# none, the default NO ACTION). The keys not named here or below are kept as they are.
CHANGED = {
    ("lists", "chat_id"): None,
    ("rows", "target"): None,
    ("builders", "chat_id"): None,
    ("money_settings", "chat_id"): None,
    ("tournaments", "chat_id"): None,
    ("tournament_tables", "chat_id"): None,
    ("leagues", "chat_id"): None,
}
# The keys 0015 did not have.
ADDED = {
    ("lists", "continues"),
    ("builders", "target_row"),
    ("people", "merged_into"),
    ("tournament_tables", "list_id"),
    ("league_tables", "list_id"),
}
# (table, column, partial index condition) indexed from this revision on (a unique
# constraint indexes the list ids). Most rows name no target: those stay out of its index.
INDEXES = (
    ("lists", "continues", None),
    ("rows", "target", "target IS NOT NULL"),
    ("builders", "list_id", None),
    ("builders", "target_row", None),
    ("people", "merged_into", None),
    ("league_day_teams", "team_id", None),
    ("league_lineups", "team_id", None),
)
# Every table with an integer surrogate key (``id``): AUTOINCREMENT on SQLite.
AUTOINCREMENT = (
    "lists", "players", "rows", "builders", "message_links", "money_settings", "outbox",
    "people", "person_names", "topics",
    "tournaments", "tournament_participants", "tournament_roster", "tournament_series",
    "tournament_results", "tournament_tables",
    "leagues", "league_teams", "league_players", "league_days", "league_day_teams",
    "league_lineups", "league_results", "league_tables",
)  # fmt: skip

# SQLite's foreign keys have no names; the batch copy gives them these, so they can be named
# to drop (the keys of a table made from the models stay unnamed: nothing refers to names).
_NAMES = {"fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s"}


def _fk_name(table: str, column: str, referred: str) -> str:
    if op.get_bind().dialect.name == "postgresql":
        return f"{table}_{column}_fkey"  # PostgreSQL's own name for an unnamed key
    return f"fk_{table}_{column}_{referred}"


def _ix_name(table: str, column: str) -> str:
    return f"ix_{table}_{column}"


def _only(where: str | None) -> dict[str, Any]:
    if where is None:
        return {}
    return {"sqlite_where": sa.text(where), "postgresql_where": sa.text(where)}


def _referred(table: str, column: str) -> str:
    return next(r for t, c, r, _ in FOREIGN_KEYS if (t, c) == (table, column))


def _on_delete(table: str, column: str) -> str:
    return next(d for t, c, _, d in FOREIGN_KEYS if (t, c) == (table, column))


def clean_dangling() -> None:
    """Do what each key's ON DELETE would have done for the rows whose target is gone: set
    the link to NULL, or delete the row (which may leave rows of its own dangling: again
    until a pass finds nothing)."""
    bind = op.get_bind()
    while True:
        changed = 0
        for table, column, referred, on_delete in FOREIGN_KEYS:
            dangling = f"{column} IS NOT NULL AND {column} NOT IN (SELECT id FROM {referred})"
            if on_delete == SET_NULL:
                sql = f"UPDATE {table} SET {column} = NULL WHERE {dangling}"
            else:
                sql = f"DELETE FROM {table} WHERE {dangling}"
            changed += max(bind.exec_driver_sql(sql).rowcount or 0, 0)
        if not changed:
            return


def _highest_named() -> dict[str, int]:
    """Per table, the highest id that a row of it or a column naming it holds (a dangling
    link's too): AUTOINCREMENT starts above it."""
    bind = op.get_bind()
    top: dict[str, int] = {}
    for table, column, referred, _ in FOREIGN_KEYS:
        if referred in AUTOINCREMENT:
            value = bind.exec_driver_sql(f"SELECT MAX({column}) FROM {table}").scalar()
            top[referred] = max(top.get(referred, 0), int(value or 0))
    for table in AUTOINCREMENT:
        value = bind.exec_driver_sql(f"SELECT MAX(id) FROM {table}").scalar()
        top[table] = max(top.get(table, 0), int(value or 0))
    return top


@contextmanager
def _foreign_keys_off() -> Iterator[None]:
    """SQLite rebuilds a table by copying it; dropping the old copy would cascade to (or be
    blocked by) every row that refers to it. So the copies run with foreign keys off, which
    SQLite allows only between transactions: the work so far is committed, the copies are
    one transaction of their own, and the keys are checked after them. The setting is
    restored (migrations run with the keys off, see env.py)."""
    raw = op.get_bind().connection.dbapi_connection
    assert raw is not None
    if raw.in_transaction:
        raw.execute("COMMIT")
    was_on = raw.execute("PRAGMA foreign_keys").fetchone()[0]
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
        raw.execute(f"PRAGMA foreign_keys={'ON' if was_on else 'OFF'}")
        raw.execute("BEGIN IMMEDIATE")  # the migration's own transaction goes on


def _rebuild_sqlite(*, up: bool) -> None:
    """Copy every table with a surrogate key, with (``up``) or without AUTOINCREMENT and
    the keys and indexes of this revision or of 0015."""
    for table in AUTOINCREMENT:
        with op.batch_alter_table(
            table,
            recreate="always",
            naming_convention=_NAMES,
            table_kwargs={"sqlite_autoincrement": up},
        ) as batch_op:
            for t, column in sorted(CHANGED.keys() | ADDED):
                if t != table:
                    continue
                referred = _referred(t, column)
                name = _fk_name(t, column, referred)
                if (t, column) in CHANGED or not up:
                    batch_op.drop_constraint(name, type_="foreignkey")
                if up or (t, column) in CHANGED:
                    on_delete = _on_delete(t, column) if up else CHANGED[(t, column)]
                    batch_op.create_foreign_key(
                        name, referred, [column], ["id"], ondelete=on_delete
                    )
            for t, column, where in INDEXES:
                if t == table and up:
                    batch_op.create_index(_ix_name(t, column), [column], **_only(where))
                elif t == table:
                    batch_op.drop_index(_ix_name(t, column))


def _keys_postgresql(*, up: bool) -> None:
    inspector = sa.inspect(op.get_bind())
    for table, column in sorted(CHANGED.keys() | ADDED):
        referred = _referred(table, column)
        if (table, column) in CHANGED or not up:
            for fk in inspector.get_foreign_keys(table):
                if fk["constrained_columns"] == [column] and fk["name"]:
                    op.drop_constraint(fk["name"], table, type_="foreignkey")
        if up or (table, column) in CHANGED:
            on_delete = _on_delete(table, column) if up else CHANGED[(table, column)]
            op.create_foreign_key(
                _fk_name(table, column, referred),
                table,
                referred,
                [column],
                ["id"],
                ondelete=on_delete,
            )
    for table, column, where in INDEXES:
        if up:
            op.create_index(_ix_name(table, column), table, [column], **_only(where))
        else:
            op.drop_index(_ix_name(table, column), table_name=table)


def _counter_at_least(table: str, seq: int) -> None:
    bind = op.get_bind()
    found = bind.exec_driver_sql("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
    current = found.scalar()
    if current is None:
        bind.exec_driver_sql("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, seq))
    elif current < seq:
        bind.exec_driver_sql("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (seq, table))


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        clean_dangling()
        _keys_postgresql(up=True)
        return
    with _foreign_keys_off():
        top = _highest_named()
        clean_dangling()
        _rebuild_sqlite(up=True)
        # The copies brought their ids along, so each table's counter stands at its highest
        # id; it goes up to the highest any link named.
        for table, seq in top.items():
            if seq:
                _counter_at_least(table, seq)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        _keys_postgresql(up=False)
        return
    with _foreign_keys_off():
        _rebuild_sqlite(up=False)
