"""Hot-path statements: SQLAlchemy Core, compiled once per dialect, run on the DB-API cursor.

Measured (bench/README.md): running a prebuilt Core statement through ``Session.execute``
costs ~25 µs of Python on SQLite, ten times what SQLite needs for it; a ``/spiel`` runs six of
them. A :class:`Prepared` statement keeps SQLAlchemy for what it is good at here - writing the
SQL for each dialect (SQLite ``?``, psycopg ``%(name)s``, ``RETURNING``) and the type
conversions (SQLite stores datetimes as text) - and skips its per-call machinery: it executes
on the DB-API connection of the session's own transaction, so it sees and is part of exactly
what the ORM in the same unit of work sees and commits.

Only plain statements qualify: no expanding ``IN`` lists, no Python-side column defaults
(the caller passes every value).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class _Compiled:
    sql: str
    positional: tuple[str, ...] | None  # parameter order for ?-style drivers, else None
    defaults: Mapping[str, Any]  # literal values of the statement ("status = 'open'")
    binds: tuple[tuple[str, Processor], ...]  # parameters that need a type conversion
    results: tuple[Processor, ...]  # per result column, None where no conversion is needed


def _compile(stmt: ClauseElement, dialect: Dialect) -> _Compiled:
    compiled = cast(SQLCompiler, stmt.compile(dialect=dialect))
    for bind in compiled.binds.values():
        if bind.expanding:
            raise ValueError("Prepared statements take no expanding IN parameters")
    binds = []
    for name, bind in compiled.binds.items():
        proc = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if proc is not None:
            binds.append((name, proc))
    results: list[Processor] = []
    for column in getattr(stmt, "selected_columns", ()):
        results.append(column.type.dialect_impl(dialect).result_processor(dialect, None))
    positional = compiled.positiontup
    return _Compiled(
        sql=compiled.string,
        positional=tuple(positional) if positional is not None else None,
        defaults={k: v for k, v in compiled.params.items() if v is not None},
        binds=tuple(binds),
        results=tuple(results) if any(p is not None for p in results) else (),
    )


_INFO_KEY = "prepared_dbapi"


def dbapi_connection(session: Session) -> tuple[Any, Dialect]:
    """The DB-API connection of the session's current transaction (begun if need be).

    Remembered per transaction: asking the session each time costs more than the statement.
    """
    cached = session.info.get(_INFO_KEY)
    if cached is not None and cached[0] is session.get_transaction():
        return cached[1], cached[2]
    conn = session.connection()
    raw = conn.connection.dbapi_connection
    session.info[_INFO_KEY] = (session.get_transaction(), raw, conn.dialect)
    return raw, conn.dialect


def bind_connection(session: Session, raw: Any, dialect: Dialect) -> None:
    """Run this session's prepared statements on ``raw``, whose transaction the caller began.

    For units that manage the transaction on the DB-API connection themselves (SQLite on the
    event loop): as long as the session has not begun a transaction of its own, statements go
    straight to ``raw``; once it has (ORM use), it is asked, and answers with the same one.
    """
    session.info[_INFO_KEY] = (None, raw, dialect)


class Prepared:
    """One Core statement, compiled once per dialect, executed on the raw DB-API cursor."""

    def __init__(self, stmt: ClauseElement) -> None:
        self.stmt = stmt
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def _for(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.setdefault(dialect.name, _compile(self.stmt, dialect))
        return compiled

    def _run(self, session: Session, params: Mapping[str, Any]) -> tuple[Any, _Compiled]:
        raw, dialect = dbapi_connection(session)
        c = self._for(dialect)
        values = {**c.defaults, **params} if c.defaults else dict(params)
        for name, proc in c.binds:
            if name in values:
                values[name] = proc(values[name])  # type: ignore[misc]
        cursor = raw.cursor()
        if c.positional is not None:
            cursor.execute(c.sql, tuple(values[name] for name in c.positional))
        else:
            cursor.execute(c.sql, values)
        return cursor, c

    def execute(self, session: Session, params: Mapping[str, Any]) -> None:
        """Run a statement without a result (insert, update)."""
        cursor, _ = self._run(session, params)
        cursor.close()

    def all(self, session: Session, params: Mapping[str, Any]) -> list[Sequence[Any]]:
        cursor, c = self._run(session, params)
        try:
            rows: list[Sequence[Any]] = cursor.fetchall()
        finally:
            cursor.close()
        if c.results:
            return [_convert(row, c.results) for row in rows]
        return rows

    def first(self, session: Session, params: Mapping[str, Any]) -> Sequence[Any] | None:
        cursor, c = self._run(session, params)
        try:
            row: Sequence[Any] | None = cursor.fetchone()
        finally:
            cursor.close()
        if row is not None and c.results:
            return _convert(row, c.results)
        return row

    def scalar(self, session: Session, params: Mapping[str, Any]) -> Any:
        row = self.first(session, params)
        return None if row is None else row[0]


def _convert(row: Sequence[Any], processors: tuple[Processor, ...]) -> tuple[Any, ...]:
    return tuple(
        value if proc is None or value is None else proc(value)
        for value, proc in zip(row, processors, strict=True)
    )
