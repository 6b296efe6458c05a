"""Every table of one database copied into another, and two databases compared row by row.

The machinery under backup, restore and the move between engines (``storage.backup``): the
same code for SQLite and PostgreSQL on either side. Values are read and written through the
schema's column types (datetimes as UTC, bytes as bytes), so a copy between engines holds the
same values, and the comparison sees the values, not how an engine spells them.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterator
from itertools import zip_longest
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Enum,
    MetaData,
    String,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.sql.elements import ColumnElement

from skatbot.storage.schema import metadata

BATCH = 500  # rows per INSERT: few round trips, bounded memory


@functools.cache
def plain_tables() -> list[Table]:
    """The schema's tables in foreign-key order, with enum columns read as plain strings: a
    copy carries whatever a column holds, it does not judge it."""
    plain = MetaData()
    for table in metadata().sorted_tables:
        copy = table.to_metadata(plain)
        for column in copy.columns:
            if isinstance(column.type, Enum):
                column.type = String(column.type.length)
    return [plain.tables[t.name] for t in metadata().sorted_tables]


def _self_references(table: Table) -> list[str]:
    """Columns naming a row of their own table (a list it continues, a row it cancels): written
    after all rows, so a row may name one that comes later in key order."""
    return [fk.parent.name for fk in table.foreign_keys if fk.column.table.name == table.name]


def _ordered(conn: Connection, table: Table) -> Iterator[dict[str, Any]]:
    """The table's rows in key order, the same order on both engines (bytewise for text: the
    "C" collation on PostgreSQL is SQLite's BINARY)."""
    keys: list[ColumnElement[Any]] = []
    for column in table.primary_key.columns:
        if conn.dialect.name == "postgresql" and isinstance(column.type, String):
            keys.append(column.collate("C"))
        else:
            keys.append(column)
    query = select(table).order_by(*keys)
    result = conn.execution_options(stream_results=True, yield_per=BATCH).execute(query)
    for row in result.mappings():
        yield dict(row)


def copy_tables(source: Connection, target: Connection) -> int:
    """Insert every row of ``source`` into ``target`` (empty, same schema); the number of rows."""
    total = 0
    for table in plain_tables():
        later = _self_references(table)
        pending: list[dict[str, Any]] = []
        links: list[dict[str, Any]] = []
        key = [c.name for c in table.primary_key.columns]
        for row in _ordered(source, table):
            for name in later:
                if row[name] is not None:
                    links.append({"_k_" + k: row[k] for k in key} | {"_v": row[name], "_c": name})
                    row[name] = None
            pending.append(row)
            if len(pending) >= BATCH:
                target.execute(insert(table), pending)
                total += len(pending)
                pending = []
        if pending:
            target.execute(insert(table), pending)
            total += len(pending)
        for name in later:
            mine = [link for link in links if link["_c"] == name]
            if mine:
                where = [table.c[k] == bindparam("_k_" + k) for k in key]
                target.execute(update(table).where(*where).values({name: bindparam("_v")}), mine)
    return total


def delete_all(conn: Connection) -> None:
    """Empty every table (children first), in the caller's transaction."""
    for table in reversed(plain_tables()):
        conn.execute(delete(table))


def row_count(conn: Connection) -> int:
    return sum(
        conn.execute(select(func.count()).select_from(t)).scalar_one() for t in plain_tables()
    )


# --- id counters: the next id of a table is never one a deleted row had ---------------------


def _counted(table: Table) -> Column[Any] | None:
    column = table.autoincrement_column
    return column if column is not None else None


def counters(conn: Connection) -> dict[str, int]:
    """Per table with generated ids: the highest id ever handed out (not just the highest
    one still there), so a restored database never gives a deleted row's id to a new one."""
    seen: dict[str, int] = {}
    if conn.dialect.name == "sqlite":
        has_sequence = conn.execute(
            text("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'")
        ).first()
        if has_sequence:
            seen = {
                n: int(s) for n, s in conn.execute(text("SELECT name, seq FROM sqlite_sequence"))
            }
    out: dict[str, int] = {}
    for table in plain_tables():
        column = _counted(table)
        if column is None:
            continue
        highest = conn.execute(select(func.max(column))).scalar() or 0
        given = seen.get(table.name, 0)
        if conn.dialect.name == "postgresql":
            sequence = conn.execute(
                text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": table.name, "c": column.name}
            ).scalar()
            if sequence:
                last, called = conn.execute(
                    text(f"SELECT last_value, is_called FROM {sequence}")
                ).one()
                given = int(last) if called else int(last) - 1
        out[table.name] = max(int(highest), given)
    return out


def set_counters(conn: Connection, values: dict[str, int]) -> None:
    for table in plain_tables():
        column = _counted(table)
        if column is None or table.name not in values:
            continue
        value = values[table.name]
        if conn.dialect.name == "postgresql":
            sequence = conn.execute(
                text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": table.name, "c": column.name}
            ).scalar()
            if sequence:
                conn.execute(
                    text("SELECT setval(:s, :v, :called)"),
                    {"s": sequence, "v": max(value, 1), "called": value > 0},
                )
        elif table.dialect_options["sqlite"].get("autoincrement"):
            conn.execute(text("DELETE FROM sqlite_sequence WHERE name = :t"), {"t": table.name})
            if value > 0:
                conn.execute(
                    text("INSERT INTO sqlite_sequence (name, seq) VALUES (:t, :v)"),
                    {"t": table.name, "v": value},
                )


# --- comparing ---------------------------------------------------------------------------


def _same(value: Any) -> Any:
    """A value as both engines mean it: times in UTC, bytes as bytes."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)
    if isinstance(value, memoryview):
        return bytes(value)
    return value


def differences(
    expected: Connection, actual: Connection, counted: dict[str, int] | None = None
) -> list[str]:
    """Where ``actual`` does not hold exactly what ``expected`` holds: table by table, row by
    row, and the id counters (``counted``: those read from ``expected`` when it was copied,
    since PostgreSQL's sequences move on outside any snapshot); empty when they are equal.
    German lines for the admin."""
    found: list[str] = []
    for table in plain_tables():
        names = [c.name for c in table.columns]
        key = [c.name for c in table.primary_key.columns]
        for ours, theirs in zip_longest(_ordered(expected, table), _ordered(actual, table)):
            if ours is None or theirs is None:
                row = ours or theirs
                assert row is not None
                where = ", ".join(f"{k}={row[k]}" for k in key)
                side = "fehlt in der Kopie" if theirs is None else "ist in der Kopie zu viel"
                found.append(f"Tabelle {table.name}: Zeile {where} {side}.")
                break
            if [_same(ours[n]) for n in names] != [_same(theirs[n]) for n in names]:
                where = ", ".join(f"{k}={ours[k]}" for k in key)
                columns = [n for n in names if _same(ours[n]) != _same(theirs[n])]
                found.append(
                    f"Tabelle {table.name}: Zeile {where} unterscheidet sich "
                    f"(Spalten {', '.join(columns)})."
                )
                break
    ours_c = counters(expected) if counted is None else counted
    theirs_c = counters(actual)
    for name, value in ours_c.items():
        if theirs_c.get(name, 0) < value:
            found.append(
                f"Tabelle {name}: die nächste Nummer wäre {theirs_c.get(name, 0) + 1}, "
                f"vergeben war schon {value}."
            )
    return found


def table_names(conn: Connection) -> set[str]:
    """The tables a database holds, without the engines' and Alembic's own."""
    from sqlalchemy import inspect

    return set(inspect(conn).get_table_names()) - {"alembic_version", "sqlite_sequence"}
