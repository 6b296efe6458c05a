"""/anheften: a pinned standings message that the bot keeps up to date.

The message id lives in ``chats.settings`` (JSON) under ``pinned_standings``. After every
booking, correction and cancellation the use case adds an ``Edit`` of that message to its
reply; the runtime applies it after the commit, so a deleted pinned message (edit fails) never
breaks a booking.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from sqlalchemy.orm import Session
from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from skatbot.handlers import texts
from skatbot.handlers.delivery import Delivery, enqueue, target_of
from skatbot.handlers.reply import Command, Edit, Reply
from skatbot.handlers.runtime import command_of, database, error_text, in_place, send
from skatbot.rules.errors import RuleError
from skatbot.rules.sheet import Sheet
from skatbot.storage import repo
from skatbot.storage.database import ensure_chat
from skatbot.storage.models import Chat

log = logging.getLogger(__name__)

KEY = "pinned_standings"


def _settings(chat: Chat | None) -> dict[str, Any]:
    if chat is None:
        return {}
    try:
        data = json.loads(chat.settings or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def pinned_id(session: Session, chat_id: int, settings: str | None = None) -> int | None:
    """The pinned standings' message id from the chat's settings (read unless given)."""
    raw = settings if settings is not None else repo.chat_settings(session, chat_id)
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    value = data.get(KEY) if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def store(session: Session, chat_id: int, message_id: int) -> None:
    chat = ensure_chat(session, chat_id, lock=True)
    data = _settings(chat)
    data[KEY] = message_id
    chat.settings = json.dumps(data)


def standings_text(sheet: Sheet, seed: str) -> str:
    return (
        "📌 <b>Stand</b> – wird nach jedem Spiel aktualisiert\n"
        + texts.totals_block(sheet, seed)
        + "\n"
        + texts.progress(sheet)
    )


def refresh(session: Session, loaded: repo.LoadedList, sheet: Sheet) -> tuple[Edit, ...]:
    """The edit of the pinned standings after a change of ``loaded`` to ``sheet`` (none if
    nothing is pinned)."""
    chat_id = loaded.lst.chat_id
    mid = pinned_id(session, chat_id, loaded.chat_settings)
    if mid is None:
        return ()
    return (
        Edit(
            mid,
            standings_text(sheet, loaded.lst.seed),
            on_gone=lambda s: forget(s, chat_id, mid),
        ),
    )


def forget(session: Session, chat_id: int, message_id: int) -> None:
    """The pinned message was deleted: stop editing it (unless another one was pinned since)."""
    chat = ensure_chat(session, chat_id, lock=True)
    data = _settings(chat)
    if data.get(KEY) == message_id:
        del data[KEY]
        chat.settings = json.dumps(data)


def _prepare(session: Session, cmd: Command) -> str | None:
    if repo.processed(session, cmd.update_id) is not None:
        return None
    from skatbot.handlers.sheet_ops import require_list

    loaded = require_list(session, cmd)
    return standings_text(loaded.sheet, loaded.lst.seed)


NO_RIGHTS = (
    "⚠️ Anheften darf ich hier nicht.\n"
    "👉 Gib mir das Admin-Recht „Nachrichten anheften“ und schick /anheften noch einmal. "
    "Die Nachricht oben halte ich trotzdem aktuell."
)


async def cmd_anheften(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Send the standings, pin them, remember the message id (then keep it up to date)."""
    chat = update.effective_chat
    if chat is None:
        return
    db = database(context)
    try:
        cmd = await in_place(context, command_of(update))
        text = await db.read(lambda s: _prepare(s, cmd))
    except RuleError as err:
        await send(update, context, Reply(error_text(err)))
        return
    if text is None:
        return  # redelivered: done before
    chat_id = cmd.chat_id

    async def pin(d: Delivery) -> None:
        """Send the standings, pin them, remember the message id: in the chat's queue, so the
        pinned message comes after every reply queued before it."""
        try:
            message_id = await d.send_text(text)
        except TelegramError as err:
            log.warning("/anheften in chat %s: send failed: %s", chat.id, err)
            return
        if message_id is None:
            return
        pinned = True
        try:
            await d.outbox.call(
                d.target.chat_id,
                lambda: context.bot.pin_chat_message(
                    d.target.chat_id, message_id, disable_notification=True
                ),
                counts=False,
            )
        except TelegramError as err:
            log.info("/anheften in chat %s: pin failed: %s", chat.id, err)
            pinned = False

        def remember(session: Session) -> None:
            store(session, chat_id, message_id)
            if repo.processed(session, cmd.update_id) is None:
                repo.mark_processed(session, cmd.update_id, chat_id, "")

        await db.write(remember)
        if not pinned:
            await d.send_text(NO_RIGHTS)

    target = target_of(update)
    if target is not None:
        enqueue(context.bot, context.application.bot_data, target, pin)
