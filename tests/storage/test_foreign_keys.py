"""A deletion takes everything that points at what it deletes, and no id comes back.

Generic over the schema (``skatbot.storage.schema.metadata``), so a table or reference added
later is covered without touching this file:

- every column named like a reference (``*_id``, ``target*``, ...) has a foreign key, unless
  it holds an id of Telegram's (allow-list below);
- every foreign key says what a deletion does (CASCADE or SET NULL) and its column is
  indexed (deleting a row looks up the rows that name it);
- for every foreign key: a target row and a row naming it are made, the target is deleted,
  and the referrer is gone (CASCADE) or its column NULL (SET NULL); no reference in the
  database is left dangling;
- every table with an integer surrogate key hands out a greater id after a deletion.

On SQLite and, with SKATBOT_TEST_DATABASE_URL, PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    Boolean,
    Connection,
    Date,
    DateTime,
    Enum,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Table,
    delete,
    func,
    insert,
    inspect,
    select,
)
from sqlalchemy.sql.schema import ColumnCollectionConstraint

from skatbot.storage import chats
from skatbot.storage import lists as lists_store
from skatbot.storage.database import Database, ensure_chat
from skatbot.storage.schema import metadata
from tests.helpers import fresh_database

# Columns that hold an id of Telegram's (or a place id made from one, docs/rules.md §10):
# no row of ours to point at. A place has a ``chats`` row only once it has settings or a
# list; what is keyed by its place alone is deleted by /loeschen by value (chats.chat_tables).
TELEGRAM_IDS = {
    "chat_id",  # a place (chat or forum topic); a foreign key where a chats row is sure
    "telegram_chat_id",
    "host_chat_id",
    "thread_id",
    "message_id",
    "reply_message_id",
    "source_message_id",
    "ephemeral_id",  # an ephemeral message's ephemeral_message_id (a builder's)
    "update_id",
    "user_id",
    "captain_user_id",
    "host_user_id",
    "owner_id",
    "for_user_id",  # the person a role code is sent to
}
# Named like a reference without the ``_id`` suffix.
REFERENCE_NAMES = {"continues", "merged_into"}


def looks_like_reference(name: str) -> bool:
    return name.endswith("_id") or name.startswith("target") or name in REFERENCE_NAMES


def foreign_keys() -> list[ForeignKey]:
    return sorted(
        (fk for t in metadata().sorted_tables for c in t.columns for fk in c.foreign_keys),
        key=lambda fk: (fk.parent.table.name, fk.parent.name),
    )


def fk_id(fk: ForeignKey) -> str:
    return f"{fk.parent.table.name}.{fk.parent.name} -> {fk.column.table.name}"


def surrogate_tables() -> list[Table]:
    return [t for t in metadata().sorted_tables if t.autoincrement_column is not None]


# --- the schema as declared -------------------------------------------------------------------


def test_every_reference_has_a_foreign_key() -> None:
    missing = [
        f"{t.name}.{c.name}"
        for t in metadata().sorted_tables
        for c in t.columns
        if looks_like_reference(c.name)
        and not c.primary_key
        and not c.foreign_keys
        and c.name not in TELEGRAM_IDS
    ]
    assert missing == [], "a foreign key (or, for a Telegram id, the allow-list) for these"


def test_every_foreign_key_says_what_a_deletion_does_and_is_indexed() -> None:
    found = foreign_keys()
    assert len(found) >= 30  # the walk below covers them all
    undecided = [fk_id(fk) for fk in found if fk.ondelete not in ("CASCADE", "SET NULL")]
    assert undecided == [], "ON DELETE CASCADE (owned rows) or SET NULL (links)"
    not_nullable = [
        fk_id(fk) for fk in found if fk.ondelete == "SET NULL" and not fk.parent.nullable
    ]
    assert not_nullable == [], "SET NULL on a column that may not be NULL"

    def leading_columns(table: Table) -> set[str]:
        """The columns a lookup by them finds in an index: the first of each index, unique
        constraint and primary key."""
        keys = [list(i.columns) for i in table.indexes]
        keys += [
            list(c.columns) for c in table.constraints if isinstance(c, ColumnCollectionConstraint)
        ]
        return {cols[0].name for cols in keys if cols} | {
            c.name for c in table.columns if c.unique or c.index
        }

    unindexed = [
        fk_id(fk) for fk in found if fk.parent.name not in leading_columns(fk.parent.table)
    ]
    assert unindexed == [], "index=True: deleting a target looks up the rows naming it"


def test_every_surrogate_key_is_never_reused() -> None:
    tables = surrogate_tables()
    assert {"lists", "tournaments", "leagues", "rows"} <= {t.name for t in tables}
    reused = [t.name for t in tables if not t.dialect_options["sqlite"]["autoincrement"]]
    assert reused == [], "__table_args__ = NEVER_REUSE_IDS (SQLite AUTOINCREMENT)"


# --- deleting on a real database ------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = fresh_database(tmp_path)
    yield database
    database.dispose()


class Maker:
    """Makes a row of any table with every required column, its parents made first."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.counter = itertools.count(1)

    def value(self, column: Any) -> Any:
        n = next(self.counter)
        kind = column.type
        if isinstance(kind, Enum):
            return kind.enums[0]
        if isinstance(kind, Boolean):
            return False
        if isinstance(kind, Integer):
            return -(10**9) - n if column.name.endswith("chat_id") else n
        if isinstance(kind, DateTime):
            return dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
        if isinstance(kind, Date):
            return dt.date(2026, 1, 1)
        if isinstance(kind, LargeBinary):
            return b""
        if isinstance(kind, String):
            length = getattr(kind, "length", None)
            return f"x{n}"[:length] if length else "{}"
        raise AssertionError(f"no value for {column}")

    def make(self, table: Table, **given: Any) -> Any:
        """A new row of ``table`` (``given`` columns as named); its primary key."""
        row: dict[str, Any] = {}
        for column in table.columns:
            if column.name in given:
                row[column.name] = given[column.name]
            elif column.foreign_keys and not column.nullable:
                (fk,) = column.foreign_keys
                row[column.name] = self.make(fk.column.table)
            elif column.foreign_keys:
                row[column.name] = None  # an optional link: only the one under test
            elif column.primary_key and column is table.autoincrement_column:
                continue
            elif column.primary_key or (
                not column.nullable and column.default is None and column.server_default is None
            ):
                row[column.name] = self.value(column)
        result = self.conn.execute(insert(table).values(row))
        (key,) = result.inserted_primary_key  # type: ignore[misc]
        return key


def dangling(conn: Connection) -> list[str]:
    """Every reference in the database whose target row is gone (of the tables it has: a
    database at an older revision lacks the newer ones)."""
    out = []
    present = set(inspect(conn).get_table_names())
    for fk in foreign_keys():
        child, parent = fk.parent, fk.column
        if child.table.name not in present:
            continue
        count = conn.scalar(
            select(func.count())
            .select_from(child.table)
            .where(child.is_not(None), child.not_in(select(parent)))
        )
        if count:
            out.append(f"{fk_id(fk)}: {count}")
    return out


def test_deleting_a_target_takes_or_clears_every_reference(db: Database) -> None:
    wrong: list[str] = []
    with db.write_engine.begin() as conn:
        make = Maker(conn)
        for fk in foreign_keys():
            table, column, target = fk.parent.table, fk.parent, fk.column.table
            target_key = make.make(target)
            referrer = make.make(table, **{column.name: target_key})
            conn.execute(delete(target).where(fk.column == target_key))
            pk = next(iter(table.primary_key.columns))
            left = conn.execute(select(column).where(pk == referrer)).first()
            if fk.ondelete == "CASCADE" and left is not None:
                wrong.append(f"{fk_id(fk)}: the referrer stayed")
            if fk.ondelete == "SET NULL" and (left is None or left[0] is not None):
                wrong.append(f"{fk_id(fk)}: the referrer {'went' if left is None else 'kept it'}")
        wrong += dangling(conn)
    assert wrong == []


def test_a_deleted_rows_id_is_never_handed_out_again(db: Database) -> None:
    with db.write_engine.begin() as conn:
        make = Maker(conn)
        reused = []
        for table in surrogate_tables():
            first = make.make(table)  # the newest row: plain SQLite would give its id again
            conn.execute(delete(table).where(table.autoincrement_column == first))
            second = make.make(table)
            if second <= first:
                reused.append(f"{table.name}: {first} -> {second}")
    assert reused == []


def new_list(session: Any) -> int:
    """A list of Anna, Bernd and Carla in chat -1001; its id."""
    ensure_chat(session, -1001)
    lst = lists_store.create_list(
        session,
        -1001,
        ["Anna", "Bernd", "Carla"],
        first_dealer=0,
        series_length=36,
        rules="isko",
        seed="ab12",
        user_id=1,
    )
    return lst.id


def test_a_deleted_lists_id_is_not_the_next_lists(db: Database) -> None:

    first = db.run_write(new_list)
    db.run_write(lambda s: chats.delete_list(s, first))
    assert db.run_write(new_list) > first


def test_the_allow_list_names_only_columns_that_exist() -> None:
    names = {c.name for t in metadata().sorted_tables for c in t.columns}
    assert names >= TELEGRAM_IDS | REFERENCE_NAMES
    assert all(re.fullmatch(r"[a-z_]+", n) for n in TELEGRAM_IDS)
