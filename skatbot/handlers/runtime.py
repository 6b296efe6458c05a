"""Runs a use case for one update: one transaction, exactly-once effect, then the reply.

The effect of an update is committed together with its update id (and the reply text). A
redelivered update books nothing and gets the stored reply again. A failed reply never undoes
a booking: sending happens after the commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from html import escape

from sqlalchemy.orm import Session
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from skatbot.handlers.reply import Command, Reply
from skatbot.rules.errors import RuleError
from skatbot.storage import repo
from skatbot.storage.database import Database

log = logging.getLogger(__name__)

UseCase = Callable[[Session, Command], Reply]
MAX_ARGS = 64
MAX_TEXT = 1000


class TooLong(RuleError):
    pass


def command_of(update: Update) -> Command:
    msg = update.effective_message
    chat = update.effective_chat
    user = update.effective_user
    text = (msg.text or msg.caption or "") if msg else ""
    if len(text) > MAX_TEXT:
        raise TooLong("Die Nachricht ist zu lang.", hint=f"Höchstens {MAX_TEXT} Zeichen.")
    words = text.split()[1:]  # drop the /command (with any @botname suffix)
    if len(words) > MAX_ARGS:
        raise TooLong("Zu viele Wörter.", hint=f"Höchstens {MAX_ARGS}.")
    name = user.full_name if user else ""
    return Command(
        chat_id=chat.id if chat else 0,
        chat_title=(chat.title or chat.full_name or "") if chat else "",
        user_id=user.id if user else None,
        user_name=name,
        update_id=update.update_id,
        args=tuple(words),
        text=text,
    )


def database(context: ContextTypes.DEFAULT_TYPE) -> Database:
    db = context.application.bot_data["db"]
    assert isinstance(db, Database)
    return db


async def execute(
    update: Update, context: ContextTypes.DEFAULT_TYPE, use_case: UseCase, *, write: bool = True
) -> None:
    """Parse, run ``use_case`` in one transaction, then send its reply."""
    try:
        cmd = command_of(update)
    except RuleError as err:
        await send(update, context, Reply(error_text(err)))
        return
    db = database(context)

    def unit(session: Session) -> Reply:
        if write:
            done = repo.processed(session, cmd.update_id)
            if done is not None:
                return Reply(done.reply or "")
        reply = use_case(session, cmd)
        if write:
            repo.mark_processed(session, cmd.update_id, cmd.chat_id, reply.text)
        return reply

    try:
        reply = await (db.write(unit) if write else db.read(unit))
    except RuleError as err:
        reply = Reply(error_text(err))
    await send(update, context, reply)


def error_text(err: RuleError) -> str:
    text = f"⚠️ {escape(err.message)}"
    if err.hint:
        text += f"\n👉 {escape(err.hint)}"
    return text


def markup(reply: Reply) -> InlineKeyboardMarkup | None:
    if not reply.buttons:
        return None
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(label, callback_data=data) for label, data in row]
            for row in reply.buttons
        ]
    )


async def send(update: Update, context: ContextTypes.DEFAULT_TYPE, reply: Reply) -> None:
    """Send the reply; a Bot API failure is logged, never undoes what was committed."""
    chat = update.effective_chat
    if chat is None or (not reply.text and not reply.documents):
        return
    try:
        if reply.text:
            await context.bot.send_message(
                chat.id, reply.text, parse_mode=ParseMode.HTML, reply_markup=markup(reply)
            )
        for doc in reply.documents:
            await context.bot.send_document(
                chat.id, doc.data, filename=doc.filename, caption=doc.caption or None
            )
    except TelegramError as err:
        log.warning("reply to chat %s failed: %s", chat.id, err)
