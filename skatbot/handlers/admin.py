"""Chat administration: ``/loeschen`` (delete the chat's data), group → supergroup moves,
commands addressed to other bots, and the bot's own membership.

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

Who is who: a message on behalf of a chat counts as that chat (``runtime.sender_of``), so
channel X and channel Y are two people and the placeholder users owning nothing. An
anonymous admin writes as the group itself and is an admin without asking Telegram.

Forum topics are places of their own (``storage.places``): ``/loeschen`` in a topic deletes
that topic's data and nothing else; in General (or a chat without topics) the chat's own data
and no topic's. A group → supergroup move takes the chat's topics along (their data is keyed
by place ids, which do not change).

``/spiel@otherbot …`` is for another bot: a group -1 handler ends such updates before any
handler of ours (commands, replies, edits) sees them. ``my_chat_member`` (the bot removed,
kicked, added) is only logged: a chat's data is deleted by ``/loeschen`` and nothing else.
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
from telegram import ChatMember, Message, MessageEntity, Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (
    ApplicationHandlerStop,
    ContextTypes,
    filters,
)

from skatbot.handlers.runtime import ANONYMOUS_ADMIN_ID, PLACEHOLDER_IDS, database, execute
from skatbot.rules.errors import RuleError
from skatbot.storage import places, repo
from skatbot.storage.database import ensure_chat
from skatbot.storage.models import Base, Chat, ProcessedUpdate, Row, SheetList
from skatbot.storage.places import Topic
from skatbot.usecases.reply import Command, Reply

log = logging.getLogger(__name__)

DELETE_PREFIX = "v1:del:"
DELETE_DATA = re.compile(r"v1:del:([0-9a-f]{16})")
NONCE_KEY = "delete_nonce"
CONFIRM_WORDS = {"ja", "yes", "bestätigen", "bestaetigen"}
# Telegram's "GroupAnonymousBot": messages of anonymous group admins come from it.
ANONYMOUS_ADMIN_BOT = ANONYMOUS_ADMIN_ID


# --- which tables belong to a chat ------------------------------------------------------------


def chat_tables() -> list[Table]:
    """Every table with a ``chat_id`` column, parents before children (FK order).

    Found from the metadata, so tables that later features add are covered too.
    """
    import skatbot.storage.builder_models
    import skatbot.storage.message_links
    import skatbot.storage.people
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


def issue_nonce(session: Session, chat_id: int, key: str, scope: str = "") -> str:
    """A fresh random nonce for a confirmation button, stored in the chat's settings under
    ``key`` (with ``scope``, e.g. a list id): asking again makes older buttons stale."""
    chat = ensure_chat(session, chat_id, lock=True)
    nonce = secrets.token_hex(8)
    settings = _settings(chat)
    settings[key] = f"{scope}:{nonce}" if scope else nonce
    chat.settings = json.dumps(settings)
    return nonce


def take_nonce(session: Session, chat_id: int, key: str, nonce: str, scope: str = "") -> bool:
    """Whether ``nonce`` (and ``scope``) is the one last issued under ``key``; a valid one
    is used up, so each confirmation button works once."""
    chat = session.get(Chat, chat_id)
    if chat is None:
        return False
    settings = _settings(chat)
    stored = settings.get(key)
    expected = f"{scope}:{nonce}" if scope else nonce
    if not isinstance(stored, str) or not hmac.compare_digest(stored, expected):
        return False
    del settings[key]
    chat.settings = json.dumps(settings)
    return True


def _has_data(session: Session, chat_id: int) -> bool:
    for table in chat_tables():
        if table.name == ProcessedUpdate.__tablename__:
            continue
        if session.scalar(select(exists().where(table.c.chat_id == chat_id))):
            return True
    return False


# --- /loeschen --------------------------------------------------------------------------------


def _check_permission(session: Session, cmd: Command, is_admin: bool) -> None:
    check_manager(session, cmd, is_admin, "Löschen", "/loeschen")


def check_manager(
    session: Session, cmd: Command, is_admin: bool, action: str, command: str
) -> None:
    """Who may manage the chat's lists (``/loeschen``, ``/oeffnen``): the chat's admins
    (``is_admin``, asked from Telegram before the transaction; an anonymous admin is one) and
    whoever created the chat's latest list. Anyone else gets a RuleError naming who may."""
    if is_admin:
        return
    latest = repo.latest_list(session, cmd.chat_id)
    creator = latest.created_by if latest is not None else None
    if creator is not None and creator not in PLACEHOLDER_IDS and creator == cmd.user_id:
        return
    who = "wer die Liste angelegt hat"
    if latest is not None and creator is not None and creator not in PLACEHOLDER_IDS:
        # an anonymous admin (posting as the group) started it: the admins are all
        if creator == (cmd.telegram_chat_id or cmd.chat_id):
            who = ""
        else:
            name = _creator_name(session, latest.id, creator)
            who = f"„{name}“ (hat die Liste angelegt)" if name else who
    raise RuleError(
        f"{action} dürfen nur die Admins dieses Chats" + (f" oder {who}." if who else "."),
        hint=f"Bitte einen Admin, {command} zu schicken.",
    )


def _creator_name(session: Session, list_id: int, creator: int) -> str:
    """The name the list's creator had on the rows they entered (lists store only the id)."""
    name = session.scalar(
        select(Row.user_name)
        .where(Row.list_id == list_id, Row.user_id == creator, Row.user_name.is_not(None))
        .order_by(Row.id)
        .limit(1)
    )
    return name or ""


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


def _others_stay(session: Session, cmd: Command) -> str:
    """The line saying which lists /loeschen leaves alone: the other topics (asked in a
    topic), or the topics (asked in General of a forum whose topics have data)."""
    if cmd.thread_id:
        return "Die anderen Themen dieser Gruppe bleiben, wie sie sind.\n"
    topics = places.chat_topic_places(session, cmd.telegram_chat_id or cmd.chat_id)
    if any(_has_data(session, place) for place in topics):
        return "Die Listen in den Themen dieser Gruppe bleiben, wie sie sind.\n"
    return ""


def ask(session: Session, cmd: Command, is_admin: bool) -> Reply:
    """``/loeschen``: warn, and hand out a fresh confirmation nonce."""
    if not _has_data(session, cmd.chat_id):
        return Reply(f"ℹ️ In {cmd.here} ist nichts gespeichert.")
    _check_permission(session, cmd, is_admin)
    nonce = issue_nonce(session, cmd.chat_id, NONCE_KEY)
    this = "dieses Themas" if cmd.thread_id else "dieses Chats"
    text = (
        f"⚠️ <b>Alle Daten {this} löschen?</b>\n"
        f"Gespeichert sind {_summary(session, cmd.chat_id)}.\n"
        + _others_stay(session, cmd)
        + "Das lässt sich nicht rückgängig machen – vorher evtl. /export oder /pdf.\n"
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
        return Reply(f"ℹ️ In {cmd.here} ist nichts gespeichert – nichts gelöscht.")
    _check_permission(session, cmd, is_admin)
    if nonce is not None:
        chat = session.get(Chat, cmd.chat_id)
        stored = _settings(chat).get(NONCE_KEY) if chat is not None else None
        if not isinstance(stored, str) or not hmac.compare_digest(stored, nonce):
            raise RuleError("Dieser Knopf gilt nicht mehr.", hint="Neu anfordern mit /loeschen.")
    what = _summary(session, cmd.chat_id)
    others = _others_stay(session, cmd)
    delete_chat_data(session, cmd.chat_id)
    return Reply(
        f"🗑 Gelöscht: {what}. In {cmd.here} ist jetzt nichts mehr gespeichert.\n"
        + others
        + "Neu anfangen: /neu Anna Bernd Carla"
    )


def loeschen(session: Session, cmd: Command, is_admin: bool) -> Reply:
    words = [w.casefold() for w in cmd.args]
    if not words:
        return ask(session, cmd, is_admin)
    if len(words) == 1 and words[0] in CONFIRM_WORDS:
        return confirm(session, cmd, is_admin, None)
    raise RuleError("Das verstehe ich nicht.", hint="Erst /loeschen, dann /loeschen ja.")


async def is_chat_admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    """Whether the sender administers the chat (asked from the Bot API, before any DB work).

    A message on behalf of the group itself comes from an anonymous admin (no question
    needed: ``from`` is a placeholder, which would answer "member"); a message on behalf of
    another chat (a channel) is no admin. A button tap always names the real user.
    """
    chat = update.effective_chat
    user = update.effective_user
    if chat is None or user is None:
        return False
    if chat.type == ChatType.PRIVATE:
        return user.id == chat.id
    msg = update.effective_message
    if update.callback_query is None and msg is not None and msg.sender_chat is not None:
        return msg.sender_chat.id == chat.id  # anonymous admin: the group itself
    if user.id in PLACEHOLDER_IDS:
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


# --- commands addressed to another bot -------------------------------------------------------


class ForAnotherBot(filters.MessageFilter):
    """A message starting with ``/command@name`` where ``name`` is not this bot (getMe's
    username, compared case-insensitively). Text and captions; new and edited messages."""

    def filter(self, message: Message) -> bool:
        text = message.text or message.caption or ""
        entities = message.entities if message.text else message.caption_entities
        if not text.startswith("/") or not entities:
            return False
        first = entities[0]
        if first.type != MessageEntity.BOT_COMMAND or first.offset != 0:
            return False
        # Commands are ASCII ([a-z0-9_] and @username), so UTF-16 length == str length here.
        _, at, target = text[1 : first.length].partition("@")
        if not at:
            return False
        me = message.get_bot().username or ""
        return target.casefold() != me.casefold()


FOR_ANOTHER_BOT = ForAnotherBot(name="ForAnotherBot")


async def ignore_other_bots_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/spiel@otherbot …`` is meant for another bot: no handler of ours may see it."""
    log.debug("update %s: command for another bot ignored", update.update_id)
    raise ApplicationHandlerStop


# --- the bot's own membership ---------------------------------------------------------------


async def on_my_chat_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was added, removed, kicked or promoted: logged, nothing stored or deleted.

    A removed bot keeps the chat's lists; added again, it finds them where they were
    (``/loeschen`` is the only way to delete a chat's data).
    """
    change = update.my_chat_member
    if change is None:
        return
    log.info(
        "bot in chat %s: %s -> %s (by user %s)",
        change.chat.id,
        change.old_chat_member.status,
        change.new_chat_member.status,
        change.from_user.id if change.from_user else "?",
    )
