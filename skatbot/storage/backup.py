"""Backup, restore and the move to another database, while the bot runs (docs/backup.md).

A backup is always one SQLite file at a schema revision skatbot knows (``alembic_version``
says which): from SQLite it is the online backup API's copy of one read snapshot, from
PostgreSQL every table read in one ``SERIALIZABLE READ ONLY DEFERRABLE`` transaction and
written into a new file at the head schema. So any backup restores into either engine.

Written to a hidden file next to the target, checked against the snapshot it was taken from
(row by row, and SQLite's integrity check), flushed to the disk and only then renamed to the
target name: a backup that was interrupted (even by kill -9) never lies under that name.

A restore and a move write into one transaction, compare the result with their source row by
row before committing, and commit only what is equal. Ids counters are carried over, so no id
a deleted row had is handed out again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from skatbot.storage import copying
from skatbot.storage.database import Database, DatabaseSetupError, sync_url, unreachable_text
from skatbot.storage.migrate import HEAD


class BackupError(RuntimeError):
    """The backup, restore or move failed: one German sentence for the admin (exit 1)."""


class BackupRefused(RuntimeError):
    """The call cannot be done as asked (missing file, target not empty): German, with the
    fix (exit 2). Nothing was changed."""


@dataclass(frozen=True)
class Done:
    rows: int
    tables: int
    revision: str


# --- files ---------------------------------------------------------------------------------

TEMP_MARK = ".unfertig-"


def _temp_next_to(target: Path) -> Path:
    """A new, private (0600: the backup holds names) hidden file in the target's folder: on
    the same file system, so the final rename is atomic."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}{TEMP_MARK}", dir=target.parent)
    os.close(fd)
    return Path(name)


def _remove_leftovers(target: Path) -> None:
    """Hidden files of earlier backups to this name that were killed before their rename."""
    for stale in target.parent.glob(f".{target.name}{TEMP_MARK}*"):
        with contextlib.suppress(OSError):
            stale.unlink()


def _publish(temp: Path, target: Path) -> None:
    """fsync the file, rename it over the target, fsync the folder: after a crash there is
    the old target or the whole new one, never part of it."""
    fd = os.open(temp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temp, target)
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _check_target(target: Path, source_url: URL, replace: bool) -> None:
    if not target.parent.is_dir():
        raise BackupRefused(
            f"Den Ordner {target.parent} gibt es nicht: erst anlegen (mkdir -p {target.parent}) "
            "oder einen anderen Pfad angeben."
        )
    running = source_url.database if source_url.get_backend_name() == "sqlite" else None
    if running and Path(running).resolve() == target.resolve():
        raise BackupRefused(
            f"{target} ist die laufende Datenbank selbst: die Sicherung braucht einen "
            "anderen Dateinamen, z. B. skatbot-sicherung.db."
        )
    if target.exists() and not replace:
        raise BackupRefused(
            f"{target} gibt es schon: einen anderen Namen wählen oder mit --ersetzen überschreiben."
        )


# --- snapshots ------------------------------------------------------------------------------


@contextlib.contextmanager
def _snapshot(url: URL) -> Iterator[Connection]:
    """A connection reading one consistent state of the database (and nothing else) until it
    is closed; writers go on meanwhile. SQLite: a read transaction in WAL mode. PostgreSQL: a
    SERIALIZABLE READ ONLY DEFERRABLE transaction, which waits until it can take a snapshot
    that no serialization anomaly touches, and then never blocks nor fails."""
    if url.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": 30}, poolclass=NullPool)
    else:
        engine = create_engine(url, poolclass=NullPool).execution_options(
            isolation_level="SERIALIZABLE", postgresql_readonly=True, postgresql_deferrable=True
        )
    try:
        try:
            conn = engine.connect()
            if url.get_backend_name() == "sqlite":
                raw = conn.connection.dbapi_connection
                assert raw is not None
                raw.isolation_level = None
                raw.execute("BEGIN")
                raw.execute("SELECT count(*) FROM sqlite_master").fetchall()  # the snapshot now
            else:
                conn.begin()
        except DBAPIError as err:  # only opening it: later errors keep their own text
            raise BackupError(unreachable_text(url, err)) from None
        try:
            yield conn
        finally:
            conn.rollback()
            conn.close()
    finally:
        engine.dispose()


def _revision_at_head(conn: Connection, what: str) -> str:
    revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    if revision != HEAD:
        raise BackupRefused(
            f"{what} ist auf dem Stand {revision}, skatbot auf {HEAD}: erst den Bot einmal "
            "starten (er bringt die Datenbank beim Start auf den neuesten Stand)."
        )
    return str(revision)


def _check_source(url: URL) -> None:
    """A SQLite file that is not there is not opened (SQLite would create an empty one)."""
    if url.get_backend_name() == "sqlite" and not Path(url.database or "").is_file():
        raise BackupRefused(
            f"Die Datenbank {url.database} gibt es nicht: SKATBOT_DATABASE_URL prüfen."
        )


def _open_target(url: str | URL) -> Database:
    db = Database(url)
    try:
        db.migrate()
    except Exception:
        db.dispose()
        raise
    return db


def _url_text(url: URL) -> str:
    return url.render_as_string(hide_password=True)


# --- backup ---------------------------------------------------------------------------------


def take_backup(source_url: str | URL, target: Path, *, replace: bool = False) -> Done:
    """Write a backup of the database at ``source_url`` to ``target`` (see the module)."""
    url = sync_url(source_url)
    _check_source(url)
    target = Path(target).expanduser()
    _check_target(target, url, replace)
    _remove_leftovers(target)
    temp = _temp_next_to(target)
    try:
        with _snapshot(url) as snapshot:
            revision = _revision_at_head(snapshot, "Die Datenbank")
            counted = copying.counters(snapshot)
            if url.get_backend_name() == "sqlite":
                _sqlite_copy(snapshot, temp)
            else:
                _rows_copy(snapshot, temp, counted)
            done = _verify_file(snapshot, temp, revision, counted)
        _publish(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    return done


def _sqlite_copy(snapshot: Connection, temp: Path) -> None:
    """SQLite's online backup API, reading the snapshot's connection: the pages of exactly the
    state that connection sees, in one step (a stepwise backup would start over whenever the
    bot writes)."""
    raw = snapshot.connection.dbapi_connection
    assert isinstance(raw, sqlite3.Connection)
    out = sqlite3.connect(temp, isolation_level=None)
    try:
        raw.backup(out)
        # A file on its own: no -wal beside it that a copy of the backup might leave behind.
        out.execute("PRAGMA journal_mode=DELETE")
    finally:
        out.close()


def _rows_copy(snapshot: Connection, temp: Path, counted: dict[str, int]) -> None:
    """Every row of the snapshot into a new SQLite file at the head schema, with the counters."""
    db = Database(f"sqlite:///{temp}")
    try:
        db.migrate()
        with db.write_engine.begin() as conn:
            copying.copy_tables(snapshot, conn)
            copying.set_counters(conn, counted)
    finally:
        db.dispose()
    with contextlib.closing(sqlite3.connect(temp, isolation_level=None)) as out:
        out.execute("PRAGMA journal_mode=DELETE")


def _verify_file(snapshot: Connection, temp: Path, revision: str, counted: dict[str, int]) -> Done:
    engine = create_engine(f"sqlite:///{temp}", poolclass=NullPool)
    try:
        with engine.connect() as written:
            check = written.execute(text("PRAGMA integrity_check")).scalars().all()
            if check != ["ok"]:
                raise BackupError(f"Die Sicherung ist beschädigt geschrieben worden: {check[:3]}.")
            problems = copying.differences(snapshot, written, counted)
            if problems:
                raise BackupError("Die Sicherung weicht von der Datenbank ab: " + problems[0])
            rows = copying.row_count(written)
            return Done(rows=rows, tables=len(copying.plain_tables()), revision=revision)
    finally:
        engine.dispose()


# --- restore --------------------------------------------------------------------------------


@contextlib.contextmanager
def _backup_file(path: Path) -> Iterator[Path]:
    """The backup as a file at the head schema: itself, or a migrated copy of an older one
    (the backup is never changed)."""
    if not path.is_file():
        raise BackupRefused(f"Die Sicherung {path} gibt es nicht: den Pfad prüfen.")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            check = [r[0] for r in conn.execute("PRAGMA quick_check")]
            revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        raise BackupRefused(
            f"{path} ist keine skatbot-Sicherung (keine SQLite-Datei mit skatbot-Tabellen)."
        ) from None
    if check != ["ok"]:
        raise BackupError(f"Die Sicherung {path} ist beschädigt: {check[:3]}.")
    if revision is None:
        raise BackupRefused(f"{path} ist keine skatbot-Sicherung (ohne Schema-Stand).")
    if revision[0] == HEAD:
        yield path
        return
    from skatbot.storage.migrate import MIGRATIONS

    known = {p.name.split("_", 1)[0] for p in (MIGRATIONS / "versions").glob("*.py")}
    if revision[0] not in known:
        raise BackupRefused(
            f"Die Sicherung {path} stammt von einer neueren skatbot-Version (Stand "
            f"{revision[0]}): erst skatbot aktualisieren."
        )
    with tempfile.TemporaryDirectory(prefix="skatbot-restore-") as folder:
        copy = Path(folder) / "backup.db"
        shutil.copyfile(path, copy)
        db = Database(f"sqlite:///{copy}")
        try:
            db.migrate()
        finally:
            db.dispose()
        yield copy


def restore_backup(backup: Path, target_url: str | URL, *, replace: bool = False) -> Done:
    """Fill the database at ``target_url`` from ``backup``: an empty one, or with ``replace``
    any one, replaced whole. Verified before the commit; nothing changes on failure."""
    backup = Path(backup).expanduser()
    with _backup_file(backup) as usable:
        return _copy_into(sync_url(f"sqlite:///{usable}"), target_url, replace=replace)


def move_database(source_url: str | URL, target_url: str | URL) -> Done:
    """Copy the database at ``source_url`` into the empty one at ``target_url``."""
    source = sync_url(source_url)
    try:
        target = sync_url(target_url)
    except DatabaseSetupError:
        raise BackupRefused(
            f"„{target_url}“ ist keine Datenbank-URL: z. B. "
            "postgresql+psycopg://skatbot@localhost/skatbot oder sqlite:///neu.db."
        ) from None
    if _url_text(source) == _url_text(target):
        raise BackupRefused(
            "Quelle und Ziel sind dieselbe Datenbank: eine andere ZIEL-URL angeben."
        )
    _check_source(source)
    try:
        return _copy_into(source, target, replace=False)
    except DatabaseSetupError as err:  # the target's, which is not SKATBOT_DATABASE_URL here
        raise BackupRefused(str(err).replace("SKATBOT_DATABASE_URL", "die ZIEL-URL")) from None


def _copy_into(source: URL, target_url: str | URL, *, replace: bool) -> Done:
    target = _open_target(target_url)
    try:
        with _snapshot(source) as snapshot:
            revision = _revision_at_head(snapshot, "Die Quelle")
            unknown = copying.table_names(snapshot) - {t.name for t in copying.plain_tables()}
            if unknown:
                raise BackupRefused(
                    f"Die Quelle hat Tabellen, die skatbot nicht kennt ({', '.join(sorted(unknown))})."
                )
            try:
                with target.write_engine.begin() as conn:
                    _lock_whole(conn)
                    if copying.row_count(conn):
                        if not replace:
                            raise BackupRefused(
                                f"Die Datenbank {_url_text(target.url)} ist nicht leer: "
                                "eine leere angeben oder mit --ersetzen ihren ganzen Inhalt "
                                "durch die Sicherung ersetzen."
                            )
                        # Ids the replaced content handed out stay used too: a button in a
                        # chat may still name one.
                        before = copying.counters(conn)
                        copying.delete_all(conn)
                    else:
                        before = {}
                    counted = copying.counters(snapshot)
                    rows = copying.copy_tables(snapshot, conn)
                    copying.set_counters(
                        conn, {k: max(v, before.get(k, 0)) for k, v in counted.items()}
                    )
                    problems = copying.differences(snapshot, conn, counted)
                    if problems:
                        raise BackupError(
                            "Die Kopie weicht von der Quelle ab, nichts wurde geändert: "
                            + problems[0]
                        )
            except DBAPIError as err:
                raise BackupError(
                    f"Das Schreiben in {_url_text(target.url)} ist gescheitert, nichts wurde "
                    f"geändert: {str(getattr(err, 'orig', err)).strip()[:200]}"
                ) from None
        return Done(rows=rows, tables=len(copying.plain_tables()), revision=revision)
    finally:
        target.dispose()


def _lock_whole(conn: Connection) -> None:
    """No one else writes while the content is replaced: SQLite's BEGIN IMMEDIATE holds the
    write lock already; on PostgreSQL every table is locked for the transaction."""
    if conn.dialect.name == "postgresql":
        names = ", ".join(f'"{t.name}"' for t in copying.plain_tables())
        conn.execute(text(f"LOCK TABLE {names} IN EXCLUSIVE MODE"))


__all__ = [
    "BackupError",
    "BackupRefused",
    "DatabaseSetupError",
    "Done",
    "move_database",
    "restore_backup",
    "take_backup",
]
