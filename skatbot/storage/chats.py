"""Repository functions of a chat (a place) as a whole: its rules and settings, whether it
has data, deleting it (``/loeschen``) and moving it to a new chat id (group → supergroup)."""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
from collections.abc import Callable

from sqlalchemy import Table, delete, exists, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from skatbot.rules.sheet import PLAYS, RowKind
from skatbot.storage import lists as lists_store
from skatbot.storage.database import ensure_chat
from skatbot.storage.lists_models import Chat, ProcessedUpdate, Row, SheetList
from skatbot.storage.settings import ChatSettings
from skatbot.storage.topic_places import Topic

log = logging.getLogger(__name__)


# --- rules and settings -----------------------------------------------------------------------


def settings_of(session: Session, chat_id: int) -> ChatSettings:
    """The chat's settings as stored (all unset if the chat has no row yet)."""
    return ChatSettings.parse(lists_store.chat_settings(session, chat_id))


def update_settings(
    session: Session, chat_id: int, change: Callable[[ChatSettings], ChatSettings]
) -> ChatSettings:
    """Change the chat's settings under its row lock (the row is created if missing);
    returns the settings as they are now."""
    chat = ensure_chat(session, chat_id, lock=True)
    before = ChatSettings.parse(chat.settings)
    after = change(before)
    if after != before or dict(after.other) != dict(before.other):
        chat.settings = after.dump()
    return after


def chat_rules(session: Session, chat_id: int) -> str:
    """The rules code new lists of the chat get (``/regeln``); locks the chat's row."""
    return ensure_chat(session, chat_id, lock=True).rules


def set_chat_rules(session: Session, chat_id: int, code: str) -> None:
    chat = ensure_chat(session, chat_id, lock=True)
    chat.rules = code
    chat.settings = dataclasses.replace(ChatSettings.parse(chat.settings), rules=code).dump()


# --- what a chat has --------------------------------------------------------------------------


def known_chat_ids(session: Session) -> list[int]:
    """Every chat the bot keeps settings for (the console makes them known again)."""
    return list(session.scalars(select(Chat.id).order_by(Chat.id)))


def chat_tables() -> list[Table]:
    """Every table with a ``chat_id`` column, parents before children (FK order).

    Found from the metadata, so tables that later features add are covered too.
    """
    from skatbot.storage.schema import metadata

    return [
        t for t in metadata().sorted_tables if "chat_id" in t.c and t.name != Chat.__tablename__
    ]


def has_data(session: Session, chat_id: int) -> bool:
    """Whether anything but processed update ids (and open questions) is stored for the chat."""
    for table in chat_tables():
        if table.name in (ProcessedUpdate.__tablename__, "pending_questions"):
            continue
        if session.scalar(select(exists().where(table.c.chat_id == chat_id))):
            return True
    return False


def count_lists_and_games(session: Session, chat_id: int) -> tuple[int, int]:
    """How many lists the chat has, and how many games they hold as ``/liste`` counts them:
    the plays (games, passed games, Ramsch) that no later row struck or cancelled."""
    lists = session.scalar(select(func.count()).where(SheetList.chat_id == chat_id)) or 0
    later = aliased(Row)
    undo = aliased(Row)
    # a later row that an undo took back (/rueckgaengig) strikes nothing
    taken_back = select(undo.id).where(undo.target == later.id, undo.kind == RowKind.UNDO)
    games = (
        session.scalar(
            select(func.count())
            .select_from(Row)
            .join(SheetList, Row.list_id == SheetList.id)
            .where(
                SheetList.chat_id == chat_id,
                Row.kind.in_(PLAYS),
                ~select(later.id).where(later.target == Row.id, ~taken_back.exists()).exists(),
            )
        )
        or 0
    )
    return lists, games


def name_on_rows(session: Session, list_id: int, user_id: int) -> str:
    """The name user ``user_id`` had on the first row they entered in the list ("" if none):
    lists store only the id of their creator."""
    name = session.scalar(
        select(Row.user_name)
        .where(Row.list_id == list_id, Row.user_id == user_id, Row.user_name.is_not(None))
        .order_by(Row.id)
        .limit(1)
    )
    return name or ""


# --- /loeschen ----------------------------------------------------------------------------------


def delete_chat_data(session: Session, chat_id: int) -> int:
    """Delete everything stored for the chat; returns the number of top-level rows deleted.
    What hangs on those rows (a list's rows, a tournament's series) goes by ON DELETE.

    Processed update ids stay (a redelivered update must still book nothing), but their
    stored reply texts, which quote names and games, are blanked.
    """
    deleted = 0
    for table in reversed(chat_tables()):  # children first
        if table.name == ProcessedUpdate.__tablename__:
            session.execute(update(table).where(table.c.chat_id == chat_id).values(reply=None))
            continue
        result = session.execute(delete(table).where(table.c.chat_id == chat_id))
        deleted += max(result.rowcount or 0, 0)  # type: ignore[attr-defined]
    session.execute(delete(Chat).where(Chat.id == chat_id))
    session.expire_all()
    return deleted


def delete_list(session: Session, list_id: int) -> None:
    """Delete one list; the schema takes what points at it along (ON DELETE): its rows,
    players and builders go, a table of a league or tournament playing on it is free again,
    a list continuing it starts a chain of its own. The stored replies of the updates since
    it began (they quote its names) are blanked, the update ids stay."""
    lst = session.get(SheetList, list_id)
    if lst is None:
        return
    chat_id, began = lst.chat_id, lst.created_at
    session.execute(delete(SheetList).where(SheetList.id == list_id))
    session.execute(
        update(ProcessedUpdate)
        .where(ProcessedUpdate.chat_id == chat_id, ProcessedUpdate.processed_at >= began)
        .values(reply=None)
    )
    session.expire_all()


def after_delete(session: Session) -> None:
    """Once the deletion has committed, fold SQLite's write-ahead log back into the
    database file and truncate it: the deleted rows' old pages would otherwise stay
    readable in the -wal file (``secure_delete`` zeroes them in the database itself)."""
    from sqlalchemy.engine import Connection

    from skatbot.storage.sheet_cache import after_commit

    bind = session.get_bind()
    if bind.dialect.name != "sqlite":
        return
    engine = bind.engine if isinstance(bind, Connection) else bind

    path = engine.url.database
    if not path or path == ":memory:":
        return

    def checkpoint() -> None:
        # A connection of its own: the pools' connections keep their busy timeouts.
        conn = sqlite3.connect(path, timeout=5)
        try:
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy and busy[0]:
                log.warning("WAL checkpoint after a deletion was blocked by a reader")
        except sqlite3.Error as err:
            log.warning("WAL checkpoint after a deletion failed: %s", err)
        finally:
            conn.close()

    after_commit(session, checkpoint)


# --- group → supergroup -------------------------------------------------------------------------


def migrate_chat(session: Session, old_id: int, new_id: int) -> int:
    """Move every row of chat ``old_id`` to ``new_id``; returns the number of rows moved.

    Idempotent: a second call finds nothing left in the old chat. Both chat rows are locked
    in id order (PostgreSQL), so the two migration messages cannot deadlock each other.
    """
    if old_id == new_id:
        return 0
    dialect = session.get_bind().dialect.name
    for chat_id in sorted((old_id, new_id)):
        ensure_chat(session, chat_id, lock=dialect == "postgresql")
    old = session.get(Chat, old_id)
    new = session.get(Chat, new_id)
    assert old is not None and new is not None
    old_has_data = has_data(session, old_id)
    if old_has_data and not has_data(session, new_id):
        new.rules, new.settings = old.rules, old.settings
    if old_has_data and lists_store.open_list(session, new_id) is not None:
        # Someone already started a list in the new chat: keep it open, close the old one.
        running = lists_store.open_list(session, old_id)
        if running is not None:
            lists_store.close_list(session, running)
    session.flush()
    moved = 0
    for table in chat_tables():
        try:
            with session.begin_nested():
                result = session.execute(
                    update(table).where(table.c.chat_id == old_id).values(chat_id=new_id)
                )
                moved += max(result.rowcount or 0, 0)  # type: ignore[attr-defined]
        except IntegrityError:  # e.g. both chats have a tournament: keep the old one where it is
            log.warning("chat %s -> %s: %s not moved (conflict)", old_id, new_id, table.name)
    # The chat's forum topics go along; their data is keyed by place ids, which stay.
    try:
        with session.begin_nested():
            result = session.execute(
                update(Topic)
                .where(Topic.telegram_chat_id == old_id)
                .values(telegram_chat_id=new_id)
            )
            moved += max(result.rowcount or 0, 0)  # type: ignore[attr-defined]
    except IntegrityError:  # the same thread id known in both chats: the old one stays
        log.warning("chat %s -> %s: topics not moved (conflict)", old_id, new_id)
    remaining = any(
        session.scalar(select(exists().where(t.c.chat_id == old_id))) for t in chat_tables()
    )
    if not remaining:
        session.execute(delete(Chat).where(Chat.id == old_id))
    session.expire_all()
    return moved
