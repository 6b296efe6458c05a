"""Async storage API over sync SQLAlchemy: one thread hop per unit of work.

Measured (DEVELOPERS.md): the async engine over aiosqlite costs ~2.1 ms per small write
transaction, a sync session in one ``asyncio.to_thread`` hop ~0.3 ms. So a unit of work is a
plain function ``fn(session) -> T`` that runs in a worker thread inside one transaction. The
same code path serves SQLite (WAL, ``BEGIN IMMEDIATE`` for writes) and PostgreSQL (psycopg;
per-chat row locks via ``lock_chat``).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any, TypeVar, cast

from sqlalchemy import Engine, Table, bindparam, create_engine, event, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session, sessionmaker

from skatbot.storage.models import Chat

T = TypeVar("T")
DEFAULT_URL = "sqlite+aiosqlite:///skatbot.db"
POOL_SIZE = 10


def sync_url(url: str | URL) -> URL:
    """Map the async driver names users configure to the sync drivers we run on threads."""
    u = make_url(url)
    if u.drivername in ("sqlite+aiosqlite", "sqlite+pysqlite"):
        u = u.set(drivername="sqlite")
    elif u.drivername in ("postgresql+asyncpg", "postgresql", "postgres", "postgresql+psycopg2"):
        u = u.set(drivername="postgresql+psycopg")
    return u


def _sqlite_engine(url: URL, begin: str) -> Engine:
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transaction control away from pysqlite so that BEGIN IMMEDIATE is ours.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(begin)

    return engine


class Database:
    """Runs units of work in a worker thread, each in one transaction."""

    def __init__(self, url: str | URL = DEFAULT_URL) -> None:
        self.url = sync_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        if self.is_sqlite:
            self.write_engine = _sqlite_engine(self.url, "BEGIN IMMEDIATE")
            self.read_engine = _sqlite_engine(self.url, "BEGIN")
        else:
            self.write_engine = create_engine(
                self.url, pool_size=POOL_SIZE, max_overflow=POOL_SIZE, pool_pre_ping=True
            )
            self.read_engine = self.write_engine
        self._writer = sessionmaker(self.write_engine, expire_on_commit=False)
        # One asyncio.Lock per event loop (a Database may outlive a loop, e.g. in tests).
        self._write_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )
        self._reader = sessionmaker(self.read_engine, expire_on_commit=False)

    def run_write(self, fn: Callable[[Session], T]) -> T:
        with self._writer() as session, session.begin():
            return fn(session)

    def run_read(self, fn: Callable[[Session], T]) -> T:
        with self._reader() as session, session.begin():
            return fn(session)

    async def write(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn`` in one write transaction (committed when it returns, rolled back on error)."""
        if not self.is_sqlite:
            return await asyncio.to_thread(self.run_write, fn)
        # SQLite has one writer at a time: queue our writes here instead of letting several
        # threads collide on the file lock, whose busy handler sleeps in steps of milliseconds.
        # (Other processes are still kept out by BEGIN IMMEDIATE.) The default executor is
        # used on purpose: measured, a dedicated one-thread executor made the reply after
        # every write ~1 ms slower (GIL hand-over), the default one does not.
        loop = asyncio.get_running_loop()
        lock = self._write_locks.get(loop)
        if lock is None:
            lock = self._write_locks[loop] = asyncio.Lock()
        async with lock:
            return await asyncio.to_thread(self.run_write, fn)

    async def read(self, fn: Callable[[Session], T]) -> T:
        return await asyncio.to_thread(self.run_read, fn)

    def migrate(self) -> None:
        from skatbot.storage.migrate import upgrade

        upgrade(self.write_engine)

    def dispose(self) -> None:
        self.write_engine.dispose()
        if self.read_engine is not self.write_engine:
            self.read_engine.dispose()


_CHATS = cast(Table, Chat.__table__)
_LOCK_CHAT = select(_CHATS.c.id).where(_CHATS.c.id == bindparam("chat_id")).with_for_update()


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
    if session.execute(_LOCK_CHAT, {"chat_id": chat_id}).first() is None:
        ensure_chat(session, chat_id, lock=True)
    locked.add(chat_id)


def ensure_chat(session: Session, chat_id: int, *, lock: bool = False) -> Chat:
    """Get (or create, race-free) the chat row; ``lock`` takes its row lock on PostgreSQL."""
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    session.execute(
        insert(Chat).values(id=chat_id, rules="isko", settings="{}").on_conflict_do_nothing()
    )
    query = select(Chat).where(Chat.id == chat_id)
    if lock:
        query = query.with_for_update()
    return session.scalars(query).one()
