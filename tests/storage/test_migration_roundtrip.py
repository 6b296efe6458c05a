"""Every migration keeps data both ways: from the head down to the first revision and back
up, one step at a time, with a row in every table at every step (SQLite and, with
SKATBOT_TEST_DATABASE_URL, PostgreSQL). Generic: it walks whatever chain of revisions exists
and fills each table from the schema the database has at that step, so a new migration is
covered without touching this test. A table that exists before and after a step must keep
its rows (a table the step drops or creates is the step's own business)."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path
from typing import Any

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import (
    Boolean,
    Connection,
    Date,
    DateTime,
    Engine,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    Numeric,
    String,
    Table,
    func,
    insert,
    select,
)

from skatbot.storage.migrate import alembic_config
from tests.storage.test_migrations import _empty_database


def chain() -> list[str]:
    """Revision ids from the first to the head."""
    script = ScriptDirectory.from_config(alembic_config())
    return [s.revision for s in reversed(list(script.walk_revisions("base", "heads")))]


def _value(table: Table, column: Any, parents: dict[tuple[str, str], Any]) -> Any:
    for fk in column.foreign_keys:
        key = (fk.column.table.name, fk.column.name)
        if key in parents:
            return parents[key]
    kind = column.type
    if isinstance(kind, Boolean):
        return False
    if isinstance(kind, Integer):
        chat = column.name == "chat_id" or (table.name == "chats" and column.name == "id")
        return -1001 if chat else 1
    if isinstance(kind, (Float, Numeric)):
        return 1
    if isinstance(kind, DateTime):
        return dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    if isinstance(kind, Date):
        return dt.date(2026, 1, 1)
    if isinstance(kind, LargeBinary):
        return b"x"
    if isinstance(kind, String):  # VARCHAR(n) and TEXT
        length = getattr(kind, "length", None) or 64
        return (f"{table.name[:3]}{column.name}")[:length] if length < 8 else "{}"
    return None


def fill(engine: Engine) -> None:
    """A row in every table that has none (parents first), from the schema as it is now."""
    meta = MetaData()
    meta.reflect(engine)
    with engine.begin() as conn:
        parents: dict[tuple[str, str], Any] = {}
        for table in meta.sorted_tables:
            if table.name == "alembic_version":
                continue
            existing = conn.execute(select(table).limit(1)).first()
            if existing is None:
                # every column given, ids too (1; a chat is -1001), references to the parents
                row = {c.name: _value(table, c, parents) for c in table.columns}
                conn.execute(insert(table).values(row))
                existing = conn.execute(select(table).limit(1)).first()
            assert existing is not None
            for column in table.columns:
                parents.setdefault((table.name, column.name), existing._mapping[column.name])


def counts(engine: Engine) -> dict[str, int]:
    meta = MetaData()
    meta.reflect(engine)
    with engine.connect() as conn:
        return {
            name: int(conn.execute(select(func.count()).select_from(t)).scalar() or 0)
            for name, t in meta.tables.items()
            if name != "alembic_version"
        }


def _kept(before: dict[str, int], after: dict[str, int], step: str) -> None:
    lost = {t: (before[t], after[t]) for t in before if t in after and after[t] < before[t]}
    assert not lost, f"{step} lost rows (before, after): {lost}"


def test_every_step_down_and_up_keeps_the_rows(tmp_path: Path) -> None:
    db = _empty_database(tmp_path)
    engine = db.write_engine
    try:
        revisions = chain()
        assert len(revisions) >= 2
        cfg = alembic_config(engine)
        command.upgrade(cfg, revisions[-1])
        for newer, older in zip(reversed(revisions), list(reversed(revisions))[1:], strict=False):
            fill(engine)
            before = counts(engine)
            assert all(before.values()), {t: n for t, n in before.items() if not n}
            command.downgrade(cfg, older)
            _kept(before, counts(engine), f"downgrade {newer} -> {older}")
        for older, newer in itertools.pairwise(revisions):
            fill(engine)
            before = counts(engine)
            command.upgrade(cfg, newer)
            _kept(before, counts(engine), f"upgrade {older} -> {newer}")
        fill(engine)  # the tables the last step created
        assert all(counts(engine).values())
        _foreign_keys_hold(engine)
    finally:
        db.dispose()


def _foreign_keys_hold(engine: Engine) -> None:
    if engine.dialect.name != "sqlite":
        return  # PostgreSQL enforces them on every statement
    with engine.connect() as conn:
        assert _rows(conn, "PRAGMA foreign_key_check") == []


def _rows(conn: Connection, sql: str) -> list[Any]:
    return list(conn.exec_driver_sql(sql))
