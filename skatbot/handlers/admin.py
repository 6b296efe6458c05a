"""Chat administration: ``/loeschen`` (delete the chat's data) and group → supergroup moves.

``/loeschen`` is allowed to the chat's administrators and to whoever created the chat's
(latest) list. It first answers with a warning and asks for ``/loeschen ja`` or a press on
the button ``v1:del:<nonce>``; the nonce is random per request and stored with the chat, so a
stale or forged button changes nothing. The admin check needs the Bot API
(``getChatMember``), so it runs in the async handler before the transaction opens; the
use cases themselves are plain sync functions like all others.

When a group becomes a supergroup, Telegram posts ``migrate_to_chat_id`` in the old chat and
``migrate_from_chat_id`` in the new one (either may come first, both may come). Each moves
every row that belongs to the old chat id to the new one, in one transaction; the second
finds nothing left to move.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import secrets
from html import escape
from typing import Any

from sqlalchemy import Table, delete, exists, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from telegram import ChatMember, Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from skatbot.handlers.reply import Command, Reply
from skatbot.handlers.runtime import database, execute
from skatbot.rules.errors import RuleError
from skatbot.storage import repo
from skatbot.storage.database import ensure_chat
from skatbot.storage.models import Base, Chat, ProcessedUpdate, Row, SheetList

log = logging.getLogger(__name__)

DELETE_PREFIX = "v1:del:"
DELETE_DATA = re.compile(r"v1:del:([0-9a-f]{16})")
NONCE_KEY = "delete_nonce"
CONFIRM_WORDS = {"ja", "yes", "bestätigen", "bestaetigen"}
# Telegram's "GroupAnonymousBot": messages of anonymous group admins come from it.
ANONYMOUS_ADMIN_BOT = 1087968824


# --- which tables belong to a chat ------------------------------------------------------------


def chat_tables() -> list[Table]:
    """Every table with a ``chat_id`` column, parents before children (FK order).

    Found from the metadata, so tables that later features add are covered too.
    """
    import skatbot.storage.builder_models
    import skatbot.storage.tournament_models  # noqa: F401

    return [
        t for t in Base.metadata.sorted_tables if "chat_id" in t.c and t.name != Chat.__tablename__
    ]


def _settings(chat: Chat) -> dict[str, Any]:
    try:
        data = json.loads(chat.settings or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _has_data(session: Session, chat_id: int) -> bool:
    for table in chat_tables():
        if table.name == ProcessedUpdate.__tablename__:
            continue
        if session.scalar(select(exists().where(table.c.chat_id == chat_id))):
            return True
    return False


# --- /loeschen --------------------------------------------------------------------------------


def _check_permission(session: Session, cmd: Command, is_admin: bool) -> None:
    if is_admin:
        return
    latest = repo.latest_list(session, cmd.chat_id)
    if latest is not None and cmd.user_id is not None and latest.created_by == cmd.user_id:
        return
    raise RuleError(
        "Löschen dürfen nur die Admins dieses Chats oder wer die Liste angelegt hat.",
        hint="Bitte einen Admin, /loeschen zu schicken.",
    )


def _summary(session: Session, chat_id: int) -> str:
    lists = session.scalar(select(func.count()).where(SheetList.chat_id == chat_id)) or 0
    games = (
        session.scalar(
            select(func.count())
            .select_from(Row)
            .join(SheetList, Row.list_id == SheetList.id)
            .where(SheetList.chat_id == chat_id, Row.kind == "game")
        )
        or 0
    )
    parts = [
        f"{lists} Liste{'n' if lists != 1 else ''} mit {games} Spiel{'en' if games != 1 else ''}"
    ]
    from skatbot.storage.tournament_repo import tournament_of

    tournament = tournament_of(session, chat_id)
    if tournament is not None:
        parts.append(f"das Turnier „{escape(tournament.name)}“")
    return " und ".join(parts)


def ask(session: Session, cmd: Command, is_admin: bool) -> Reply:
    """``/loeschen``: warn, and hand out a fresh confirmation nonce."""
    if not _has_data(session, cmd.chat_id):
        return Reply("ℹ️ In diesem Chat ist nichts gespeichert.")
    _check_permission(session, cmd, is_admin)
    chat = ensure_chat(session, cmd.chat_id, lock=True)
    nonce = secrets.token_hex(8)
    settings = _settings(chat)
    settings[NONCE_KEY] = nonce
    chat.settings = json.dumps(settings)
    text = (
        "⚠️ <b>Alle Daten dieses Chats löschen?</b>\n"
        f"Gespeichert sind {_summary(session, cmd.chat_id)}.\n"
        "Das lässt sich nicht rückgängig machen – vorher evtl. /export oder /pdf.\n"
        "👉 Zum Bestätigen: /loeschen ja (oder den Knopf drücken)."
    )
    return Reply(text, buttons=((("🗑 Ja, alles löschen", DELETE_PREFIX + nonce),),))


def delete_chat_data(session: Session, chat_id: int) -> int:
    """Delete everything stored for the chat; returns the number of top-level rows deleted.

    Processed update ids stay (a redelivered update must still book nothing), but their
    stored reply texts, which quote names and games, are blanked.
    """
    deleted = 0
    for table in reversed(chat_tables()):  # children first
        if table.name == ProcessedUpdate.__tablename__:
            session.execute(update(table).where(table.c.chat_id == chat_id).values(reply=None))
            continue
        if table.name == SheetList.__tablename__:
            list_ids = select(SheetList.id).where(SheetList.chat_id == chat_id)
            session.execute(delete(Row).where(Row.list_id.in_(list_ids)))
        result = session.execute(delete(table).where(table.c.chat_id == chat_id))
        deleted += max(result.rowcount or 0, 0)  # type: ignore[attr-defined]
    session.execute(delete(Chat).where(Chat.id == chat_id))
    session.expire_all()
    return deleted


def confirm(session: Session, cmd: Command, is_admin: bool, nonce: str | None) -> Reply:
    """``/loeschen ja`` (``nonce`` None) or the button (``nonce`` from its data): delete."""
    if not _has_data(session, cmd.chat_id):
        return Reply("ℹ️ In diesem Chat ist nichts gespeichert – nichts gelöscht.")
    _check_permission(session, cmd, is_admin)
    if nonce is not None:
        chat = session.get(Chat, cmd.chat_id)
        stored = _settings(chat).get(NONCE_KEY) if chat is not None else None
        if not isinstance(stored, str) or not hmac.compare_digest(stored, nonce):
            raise RuleError("Dieser Knopf gilt nicht mehr.", hint="Neu anfordern mit /loeschen.")
    what = _summary(session, cmd.chat_id)
    delete_chat_data(session, cmd.chat_id)
    return Reply(
        f"🗑 Gelöscht: {what}. In diesem Chat ist jetzt nichts mehr gespeichert.\n"
        "Neu anfangen: /neu Anna Bernd Carla"
    )


def loeschen(session: Session, cmd: Command, is_admin: bool) -> Reply:
    words = [w.casefold() for w in cmd.args]
    if not words:
        return ask(session, cmd, is_admin)
    if len(words) == 1 and words[0] in CONFIRM_WORDS:
        return confirm(session, cmd, is_admin, None)
    raise RuleError("Das verstehe ich nicht.", hint="Erst /loeschen, dann /loeschen ja.")


async def is_chat_admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    """Whether the sender administers the chat (asked from the Bot API, before any DB work)."""
    chat = update.effective_chat
    user = update.effective_user
    if chat is None or user is None:
        return False
    if chat.type == ChatType.PRIVATE:
        return user.id == chat.id
    msg = update.effective_message
    if (
        update.callback_query is None
        and msg is not None
        and msg.sender_chat is not None
        and msg.sender_chat.id == chat.id
    ):
        return True  # an anonymous admin writes as the group itself
    if user.id == ANONYMOUS_ADMIN_BOT:
        return False
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError as err:
        log.warning("getChatMember(%s, %s) failed: %s", chat.id, user.id, err)
        return False
    return member.status in (ChatMember.OWNER, ChatMember.ADMINISTRATOR)


async def cmd_loeschen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    is_admin = await is_chat_admin(update, context)
    await execute(update, context, lambda s, c: loeschen(s, c, is_admin))


async def on_delete_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    match = DELETE_DATA.fullmatch(query.data or "")
    try:
        await query.answer()
    except TelegramError as err:
        log.info("answerCallbackQuery failed: %s", err)
    if match is None or update.effective_chat is None:
        return  # forged or garbled data: ignore
    nonce = match.group(1)
    is_admin = await is_chat_admin(update, context)
    await execute(update, context, lambda s, c: confirm(s, c, is_admin, nonce))


# --- group → supergroup -----------------------------------------------------------------------


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
    old_has_data = _has_data(session, old_id)
    if old_has_data and not _has_data(session, new_id):
        new.rules, new.settings = old.rules, old.settings
    if old_has_data and repo.open_list(session, new_id) is not None:
        # Someone already started a list in the new chat: keep it open, close the old one.
        running = repo.open_list(session, old_id)
        if running is not None:
            repo.close_list(session, running)
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
    remaining = any(
        session.scalar(select(exists().where(t.c.chat_id == old_id))) for t in chat_tables()
    )
    if not remaining:
        session.execute(delete(Chat).where(Chat.id == old_id))
    session.expire_all()
    return moved


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    if msg is None:
        return
    if msg.migrate_to_chat_id:
        old_id, new_id = msg.chat.id, msg.migrate_to_chat_id
    elif msg.migrate_from_chat_id:
        old_id, new_id = msg.migrate_from_chat_id, msg.chat.id
    else:
        return
    update_id = update.update_id

    def unit(session: Session) -> None:
        # Locks first (in id order), then the redelivery check - like runtime.execute.
        moved = migrate_chat(session, old_id, new_id)
        if repo.processed(session, update_id) is None:
            repo.mark_processed(session, update_id, new_id, "")
        if moved:
            log.info("chat %s became %s: %d rows moved", old_id, new_id, moved)

    await database(context).write(unit)


def register(app: Application) -> None:  # type: ignore[type-arg]
    """Handlers of this module (called from registry.register)."""
    app.add_handler(CommandHandler("loeschen", cmd_loeschen))
    app.add_handler(CallbackQueryHandler(on_delete_button, pattern=r"^v1:del:"))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
