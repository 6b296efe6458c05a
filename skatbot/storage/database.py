"""Async storage API over sync SQLAlchemy: a unit of work crosses to the database once.

Measured (the design card; bench/README.md): the async engine over aiosqlite costs ~2.1 ms per
small write transaction, a sync session ~0.05 ms plus the way there. So a unit of work is a
plain function ``fn(session) -> T`` that runs inside one transaction: on SQLite on the event
loop (WAL, ``BEGIN IMMEDIATE`` for writes, never waiting for a lock there), on PostgreSQL in a
worker thread (psycopg; per-chat row locks via ``lock_chat``). The units are the same code for
both databases.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Engine, Table, bindparam, create_engine, event, select, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

from skatbot.storage.lists_models import Chat
from skatbot.storage.prepared import Prepared, bind_connection
from skatbot.storage.sheet_cache import INFO_KEY, SheetCache, run_after_commit

T = TypeVar("T")
log = logging.getLogger(__name__)
DEFAULT_URL = "sqlite:///skatbot.db"
POOL_SIZE = 10
PING_TIMEOUT = 5.0  # seconds: a readiness check's question to the database


# Drivers that are extras of the package (pyproject.toml): backend → (module, install line).
DRIVER_INSTALL = {
    "postgresql": (
        "PostgreSQL",
        "psycopg",
        "pip install '.[postgres]' im Quellordner von skatbot (oder pip install 'psycopg[binary]')",
    ),
}


def check_reachable(url: URL) -> None:
    """A SQLite file in a folder that does not exist: refused before SQLite's own "unable to
    open database file"."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return
    from pathlib import Path

    folder = Path(url.database).expanduser().resolve().parent
    if not folder.is_dir():
        raise DatabaseSetupError(
            f"Den Ordner {folder} für die SQLite-Datenbank gibt es nicht: erst anlegen "
            f"(mkdir -p {folder}) oder SKATBOT_DATABASE_URL ändern."
        )


def unreachable_text(url: URL, err: Exception) -> str:
    """One German line for a database the driver could not open (no traceback)."""
    text = str(getattr(err, "orig", err) or err)
    if url.get_backend_name() == "sqlite":
        return f"Die SQLite-Datenbank {url.database} lässt sich nicht öffnen: {text.strip()}."
    host = f"{url.host or 'localhost'}:{url.port or 5432}"
    if "does not exist" in text and "database" in text:
        return (
            f"Die PostgreSQL-Datenbank „{url.database}“ gibt es auf {host} nicht: erst anlegen "
            f"(createdb {url.database}) oder SKATBOT_DATABASE_URL ändern."
        )
    if "authentication" in text or "password" in text:
        return f"PostgreSQL auf {host} lässt die Anmeldung nicht zu: Benutzer und Passwort prüfen."
    return (
        f"PostgreSQL auf {host} ist nicht erreichbar: Rechnername und Port in "
        "SKATBOT_DATABASE_URL prüfen und ob der Server läuft."
    )


class DatabaseSetupError(RuntimeError):
    """A database URL that cannot work here (unknown form, driver not installed): one German
    line naming the fix, shown by the command line instead of a traceback."""


# The database URLs skatbot accepts (README "Database URL"): the form as written -> the
# SQLAlchemy driver that runs. Both databases are driven by sync drivers on worker threads or
# on the event loop (see the module's docstring), never by an asyncio driver.
URL_FORMS = {
    "sqlite": "sqlite",  # Python's sqlite3
    "sqlite+pysqlite": "sqlite",  # SQLAlchemy's name for the same
    "postgresql": "postgresql+psycopg",  # no driver named: psycopg 3 (SQLAlchemy's is psycopg2)
    "postgresql+psycopg": "postgresql+psycopg",
}
# Older spellings, accepted so that a running installation starts after an upgrade; the start
# says what runs instead (``legacy_notice``).
LEGACY_FORMS = {
    "sqlite+aiosqlite": "sqlite",
    "postgresql+asyncpg": "postgresql+psycopg",
}
EXAMPLES = "sqlite:///skatbot.db (SQLite) oder postgresql+psycopg://user@host/db (PostgreSQL)"


def _parse(url: str | URL) -> URL:
    try:
        return make_url(url)
    except ArgumentError:
        raise DatabaseSetupError(
            f"SKATBOT_DATABASE_URL ist keine Datenbank-URL: z. B. {EXAMPLES}."
        ) from None


def sync_url(url: str | URL) -> URL:
    """The URL as it runs: one of ``URL_FORMS`` (or ``LEGACY_FORMS``) with its driver named;
    any other form is a ``DatabaseSetupError`` naming the URL to write instead."""
    u = _parse(url)
    driver = URL_FORMS.get(u.drivername) or LEGACY_FORMS.get(u.drivername)
    if driver is None:
        raise DatabaseSetupError(refused_text(u))
    return u.set(drivername=driver)


def refused_text(u: URL) -> str:
    """One German line for a URL form skatbot does not run, with the form to write."""
    written = u.drivername
    if written.startswith("sqlite"):
        fix = u.set(drivername="sqlite")
    elif written.startswith(("postgres", "pgsql")):
        fix = u.set(drivername="postgresql+psycopg")
    else:
        return (
            f"Die Datenbank „{written}“ kennt skatbot nicht. SKATBOT_DATABASE_URL muss SQLite "
            f"oder PostgreSQL nennen: {EXAMPLES}."
        )
    shown = fix.render_as_string(hide_password=True)
    return (
        f"Die Datenbank-URL „{written}://…“ nennt einen Treiber, den skatbot nicht verwendet. "
        f"SKATBOT_DATABASE_URL so schreiben: {shown}"
    )


def legacy_notice(url: str | URL) -> str | None:
    """For an older spelling (``LEGACY_FORMS``): one German line saying what runs and what
    to write instead; ``None`` for the forms of ``URL_FORMS``."""
    u = _parse(url)
    driver = LEGACY_FORMS.get(u.drivername)
    if driver is None:
        return None
    fix = u.set(drivername="sqlite" if driver == "sqlite" else "postgresql+psycopg")
    label = "Pythons sqlite3" if driver == "sqlite" else "psycopg 3"
    return (
        f"SKATBOT_DATABASE_URL schreibt „{u.drivername}“, skatbot verwendet aber {label}; "
        f"bitte so schreiben: {fix.render_as_string(hide_password=True)}"
    )


def _sqlite_engine(url: URL, begin: str, *, busy_ms: int = 30_000) -> Engine:
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": busy_ms / 1000}
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transaction control away from pysqlite so that BEGIN IMMEDIATE is ours.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute(f"PRAGMA busy_timeout={busy_ms}")
        cur.execute("PRAGMA foreign_keys=ON")
        # Deleted rows are overwritten with zeros, not just marked free (/loeschen).
        cur.execute("PRAGMA secure_delete=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # On the DB-API connection directly: exec_driver_sql would cost ~20 µs per transaction.
        # A unit run on the event loop has begun already (_LoopConnection): joined, not nested.
        raw = conn.connection.dbapi_connection
        if not raw.in_transaction:
            raw.execute(begin)

    return engine


def _create_private(path: str | None) -> None:
    """Create a new SQLite database file readable by its owner only (0600): it holds names
    and account ids. SQLite gives its -wal and -shm files the database file's mode."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as err:  # e.g. its folder is missing: SQLite will say so itself
        log.debug("could not create %s: %s", path, err)
        return
    os.close(fd)


def check_driver(url: URL) -> None:
    """Load the URL's dialect and DB-API driver now, so that a missing one is one clear
    ``DatabaseSetupError`` rather than a ``ModuleNotFoundError`` deep in SQLAlchemy."""
    try:
        url.get_dialect().import_dbapi()
    except NoSuchModuleError:
        raise DatabaseSetupError(
            f"Die Datenbank „{url.drivername}“ kennt skatbot nicht: {EXAMPLES}."
        ) from None
    except ImportError as err:
        backend = url.get_backend_name()
        if backend in DRIVER_INSTALL:
            label, module, install = DRIVER_INSTALL[backend]
            raise DatabaseSetupError(
                f"{label} braucht den Treiber {module}, der nicht installiert ist: {install}."
            ) from None
        raise DatabaseSetupError(
            f"Der Datenbanktreiber {err.name or url.drivername} ist nicht installiert."
        ) from None


def _ping_engine(url: URL) -> Engine:
    """Connections for ``Database.ping``: a new one per question (no pool), never creating
    a SQLite file that is not there (``mode=rw``), short timeouts."""
    if url.get_backend_name() != "sqlite":
        return create_engine(
            url, poolclass=NullPool, connect_args={"connect_timeout": int(PING_TIMEOUT)}
        )
    path = url.database or ":memory:"
    if path == ":memory:" or path.startswith("file:"):
        return create_engine(url, poolclass=NullPool)
    from pathlib import Path

    uri = Path(path).expanduser().resolve().as_uri() + "?mode=rw"
    return create_engine(
        "sqlite://",
        poolclass=NullPool,
        creator=lambda: sqlite3.connect(uri, uri=True, timeout=PING_TIMEOUT),
    )


class Database:
    """Runs units of work, each in one transaction.

    PostgreSQL: in a worker thread (every statement is a network round trip). SQLite: on the
    event loop itself, which is what makes a booking fast - measured, the hop to a worker
    thread and back cost ~0.8 ms of wake-ups in an idle bot, more than the whole unit of work
    (bench/README.md). The loop never waits on a lock there: the inline connections do not
    wait (busy timeout 0), and a unit that finds the database locked by another process is
    run again in a worker thread, which waits up to 30 s. Units that take long (PDFs,
    tournament-sized work) ask for the thread with ``offload=True``.
    """

    def __init__(self, url: str | URL = DEFAULT_URL) -> None:
        self.url = sync_url(url)
        check_driver(self.url)
        self.sheets = SheetCache()
        info = {INFO_KEY: self.sheets}
        if self.url.get_backend_name() == "sqlite":
            _create_private(self.url.database)
            self.write_engine = _sqlite_engine(self.url, "BEGIN IMMEDIATE")
            self.read_engine = _sqlite_engine(self.url, "BEGIN")
            self._inline_writer: _LoopConnection | None = _LoopConnection(
                _sqlite_engine(self.url, "BEGIN IMMEDIATE", busy_ms=0), "BEGIN IMMEDIATE", info
            )
            self._inline_reader: _LoopConnection | None = _LoopConnection(
                _sqlite_engine(self.url, "BEGIN", busy_ms=0), "BEGIN", info
            )
            self._engines = [
                self.write_engine,
                self.read_engine,
                self._inline_writer.engine,
                self._inline_reader.engine,
            ]
        else:
            # No pre-ping (a round trip per unit, ~10 % of a booking's): a unit that meets a
            # dropped connection is run once more instead, see _run.
            self.write_engine = create_engine(self.url, pool_size=POOL_SIZE, max_overflow=POOL_SIZE)
            self.read_engine = self.write_engine
            self._engines = [self.write_engine]
            self._inline_writer = self._inline_reader = None
        self._ping_engine: Engine | None = None  # made at the first ping
        self._writer = sessionmaker(self.write_engine, expire_on_commit=False, info=info)
        self._reader = sessionmaker(self.read_engine, expire_on_commit=False, info=info)
        # One asyncio.Lock per event loop (a Database may outlive a loop, e.g. in tests).
        self._write_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    @staticmethod
    def _run(maker: sessionmaker[Session], fn: Callable[[Session], T]) -> T:
        try:
            return Database._run_once(maker, fn)
        except DBAPIError as err:
            if not err.connection_invalidated:
                raise
            # The server dropped the connection (restart, idle timeout); SQLAlchemy has
            # recycled the pool's connections. The unit was rolled back (or, if the drop hit
            # its COMMIT, finds its update id stored): running it again is safe.
            log.warning("database connection lost (%s); running the unit again", err.orig)
            return Database._run_once(maker, fn)

    @staticmethod
    def _run_once(maker: sessionmaker[Session], fn: Callable[[Session], T]) -> T:
        with maker() as session:
            with session.begin():
                result = fn(session)
            run_after_commit(session)
            return result

    def run_write(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn`` in one write transaction here (blocking; waits for the database lock)."""
        return self._run(self._writer, fn)

    def run_read(self, fn: Callable[[Session], T]) -> T:
        return self._run(self._reader, fn)

    async def write(self, fn: Callable[[Session], T], *, offload: bool = False) -> T:
        """Run ``fn`` in one write transaction (committed when it returns, rolled back on error)."""
        if self._inline_writer is None:
            return await asyncio.to_thread(self.run_write, fn)
        # SQLite has one writer at a time: our writes queue here, not on the file lock (whose
        # busy handler sleeps in steps of milliseconds). Other processes are kept out by
        # BEGIN IMMEDIATE.
        loop = asyncio.get_running_loop()
        lock = self._write_locks.get(loop)
        if lock is None:
            lock = self._write_locks[loop] = asyncio.Lock()
        async with lock:
            if not offload:
                try:
                    return self._inline_writer.run(fn)
                except _Unavailable:
                    log.info("database locked by another process; waiting in a thread")
            return await asyncio.to_thread(self.run_write, fn)

    async def read(self, fn: Callable[[Session], T], *, offload: bool = False) -> T:
        if self._inline_reader is not None and not offload:
            try:
                return self._inline_reader.run(fn)
            except _Unavailable:
                pass
        return await asyncio.to_thread(self.run_read, fn)

    def migrate(self) -> None:
        """Bring the schema up to date; a database that cannot be reached or opened is one
        German ``DatabaseSetupError`` naming the fix (the command line shows it, exit 2)."""
        from sqlalchemy.exc import DBAPIError

        from skatbot.storage.migrate import upgrade

        check_reachable(self.url)
        try:
            upgrade(self.write_engine)
        except DBAPIError as err:
            raise DatabaseSetupError(unreachable_text(self.url, err)) from None

    async def ping(self, timeout: float = PING_TIMEOUT) -> str | None:
        """Whether the database answers now: ``None``, or a short reason (English, for
        operators: readiness in ``skatbot.web.health``). Asked on a connection of its own,
        opened for the question: the pooled ones and the event loop's may outlive a SQLite
        file moved away or a server gone, and a question must never wait for a lock."""
        try:
            await asyncio.wait_for(asyncio.to_thread(self._ping), timeout)
        except TimeoutError:
            return f"the database did not answer within {timeout:g} s"
        except Exception as err:
            lines = str(getattr(err, "orig", None) or err).strip().splitlines()
            return f"the database cannot be reached: {lines[0] if lines else type(err).__name__}"
        return None

    def _ping(self) -> None:
        if self.url.get_backend_name() == "sqlite" and self.url.database in (None, "", ":memory:"):
            return  # in memory: there while the process is, and a new connection is another one
        if self._ping_engine is None:
            self._ping_engine = _ping_engine(self.url)
        with self._ping_engine.connect() as conn:
            # Ours, and migrated: a new empty file or an empty database would answer SELECT 1.
            conn.execute(text("SELECT version_num FROM alembic_version")).first()

    def dispose(self) -> None:
        if self._ping_engine is not None:
            self._ping_engine.dispose()
        for loop_conn in (self._inline_writer, self._inline_reader):
            if loop_conn is not None:
                loop_conn.close()
        for engine in self._engines:
            engine.dispose()


class _Unavailable(Exception):
    """The loop connection cannot run this unit now (locked by another process or in use)."""


class _LoopConnection:
    """A SQLite connection kept open for the units run on the event loop, one at a time.

    Measured per unit: checking a connection out of the pool and back cost ~20 µs, the ORM
    session's transaction bookkeeping ~35 µs - more than the statements of a booking. So the
    connection stays open, and the transaction is begun and committed on the DB-API connection
    here; the unit's Session joins it (``prepared.bind_connection``, and the engine's begin
    hook does not begin twice), so ORM and prepared statements commit or roll back together.
    The busy timeout is 0: a unit that finds the database locked raises ``_Unavailable``
    after its rollback, before any effect, and the caller runs it in a worker thread.
    """

    def __init__(self, engine: Engine, begin: str, info: dict[str, Any]) -> None:
        self.engine = engine
        self._begin = begin
        self._info = info
        self._conn: Connection | None = None
        self._in_use = threading.Lock()  # a Database shared by two threads' event loops

    def _connection(self) -> Connection:
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self.engine.connect()
        return self._conn

    def run(self, fn: Callable[[Session], T]) -> T:
        if not self._in_use.acquire(blocking=False):
            raise _Unavailable
        try:
            conn = self._connection()
            raw = conn.connection.dbapi_connection
            assert raw is not None
            session = Session(bind=conn, expire_on_commit=False, info=self._info)
            try:
                raw.execute(self._begin)
                bind_connection(session, raw, conn.dialect)
                result = fn(session)
                if session.in_transaction():
                    session.commit()  # the ORM was used: flush, then COMMIT
                if raw.in_transaction:
                    raw.commit()
            except Exception as err:
                with contextlib.suppress(Exception):
                    session.rollback()
                    if raw.in_transaction:
                        raw.rollback()
                if is_busy(err):
                    raise _Unavailable from err
                if isinstance(err, (DBAPIError, sqlite3.Error)):
                    self.close()  # start the next unit on a fresh connection
                raise
            finally:
                session.close()
            run_after_commit(session)
            return result
        finally:
            self._in_use.release()

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None


def is_busy(err: BaseException) -> bool:
    """SQLite's "database is locked" (SQLITE_BUSY and its extended codes), raw or wrapped."""
    orig = err.orig if isinstance(err, DBAPIError) else err
    code = getattr(orig, "sqlite_errorcode", None)
    return isinstance(orig, sqlite3.OperationalError) and code is not None and code & 0xFF == 5


def transient_database_error(error: object) -> bool:
    """An error of the database that may not happen again: it was away for a moment (the
    connection dropped, the pool was exhausted, a lock timed out)."""
    from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    return isinstance(error, (OperationalError, InterfaceError, DisconnectionError, PoolTimeout))


_CHATS = cast(Table, Chat.__table__)
_LOCK_CHAT = Prepared(
    select(_CHATS.c.id).where(_CHATS.c.id == bindparam("chat_id")).with_for_update()
)


def lock_chat(session: Session, chat_id: int) -> None:
    """Serialise writers of one chat for this transaction.

    On SQLite ``BEGIN IMMEDIATE`` already serialises all writers, so there is nothing to do; on
    PostgreSQL ``SELECT ... FOR UPDATE`` on the chat row keeps two instances from interleaving
    one chat's bookings.
    """
    if session.get_bind().dialect.name != "postgresql":
        return
    # The runtime locks before its redelivery check and a use case locks again: a row lock
    # is held to the end of the transaction, so the second call needs no round trip.
    locked = session.info.setdefault("locked_chats", set())
    if chat_id in locked:
        return
    # The chat row exists after the first command in a chat: one round trip in the common case.
    if _LOCK_CHAT.first(session, {"chat_id": chat_id}) is None:
        ensure_chat(session, chat_id, lock=True)
    locked.add(chat_id)


_NEW_CHAT = {"rules": "isko", "settings": "{}"}


def ensure_chat(session: Session, chat_id: int, *, lock: bool = False) -> Chat:
    """Get (or create, race-free) the chat row; ``lock`` takes its row lock on PostgreSQL."""
    # The dialects' insert (for ON CONFLICT) imported here: the PostgreSQL dialect package
    # costs ~50 ms of a SQLite bot's start-up.
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        session.execute(pg_insert(Chat).values(**_NEW_CHAT, id=chat_id).on_conflict_do_nothing())
    else:
        from sqlalchemy.dialects.sqlite import insert

        session.execute(insert(Chat).values(**_NEW_CHAT, id=chat_id).on_conflict_do_nothing())
    query = select(Chat).where(Chat.id == chat_id)
    if lock:
        query = query.with_for_update()
    return session.scalars(query).one()
