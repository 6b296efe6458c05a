"""Runs a use case for one update: one transaction, exactly-once effect, then the reply.

The effect of an update is committed together with its update id (and the reply text). A
redelivered update books nothing and gets the stored reply again. A failed reply never undoes
a booking: sending happens after the commit.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import warnings
from collections.abc import Awaitable, Callable
from html import escape
from typing import Any

from sqlalchemy.orm import Session
from telegram import Message, Update
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import ContextTypes
from telegram.warnings import PTBUserWarning

from skatbot.handlers.reply import Answer, Buttons, Command, Edit, Reply
from skatbot.rules.errors import RuleError
from skatbot.storage import repo
from skatbot.storage.database import Database, lock_chat

log = logging.getLogger(__name__)

UseCase = Callable[[Session, Command], Reply]
CallbackUseCase = Callable[[Session, Command], Answer]
MAX_ARGS = 400  # a /teilnehmer or /ergebnis message lists many names
MAX_TEXT = 4096  # Telegram's own limit for a message


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
        source_message_id=msg.message_id if msg else None,
    )


def database(context: ContextTypes.DEFAULT_TYPE) -> Database:
    db = context.application.bot_data["db"]
    assert isinstance(db, Database)
    return db


async def execute(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    use_case: UseCase,
    *,
    write: bool = True,
    is_admin: bool = False,
    offload: bool = False,
) -> None:
    """Parse, run ``use_case`` in one transaction, then send its reply.

    ``offload`` runs a long unit (a PDF, a tournament-sized computation) in a worker thread
    so that the event loop keeps serving other chats meanwhile.
    """
    try:
        cmd = command_of(update)
        if is_admin:
            cmd = dataclasses.replace(cmd, is_admin=True)
    except RuleError as err:
        await send(update, context, Reply(error_text(err)))
        return
    db = database(context)

    def unit(session: Session) -> Reply:
        if write:
            # Lock the chat before the redelivery check: a second instance handling the same
            # update waits here and then finds it processed (PostgreSQL; no-op on SQLite).
            lock_chat(session, cmd.chat_id)
            done = repo.processed(session, cmd.update_id)
            if done is not None:
                return Reply(done.reply or "")
        reply = use_case(session, cmd)
        if write:
            repo.mark_processed(session, cmd.update_id, cmd.chat_id, reply.text)
        return reply

    try:
        if write:
            reply = await db.write(unit, offload=offload)
        else:
            reply = await db.read(unit, offload=offload)
    except RuleError as err:
        reply = Reply(error_text(err))
    await send(update, context, reply)


def error_text(err: RuleError) -> str:
    text = f"⚠️ {escape(err.message)}"
    if err.hint:
        text += f"\n👉 {escape(err.hint)}"
    return text


def markup(reply: Reply | Buttons) -> Any:
    """The inline keyboard as the Bot API's JSON text (``None`` without buttons).

    The Bot API takes ``reply_markup`` as a JSON-serialised object, and PTB passes a string
    through unchanged. Measured, building PTB's InlineKeyboardMarkup and serialising it again
    cost ~55 µs per reply (a tenth of a whole booking); this costs ~4 µs and sends the same
    bytes. (Typed ``Any``: PTB's signature names only its own markup classes.)
    """
    rows = reply.buttons if isinstance(reply, Reply) else reply
    if not rows:
        return None
    keyboard = [[{"text": label, "callback_data": data} for label, data in row] for row in rows]
    return json.dumps({"inline_keyboard": keyboard}, ensure_ascii=False)


# Reply delivery: transient Bot API faults (5xx, network errors, timeouts) are retried a few
# times with backoff. A timed-out sendMessage may still have been delivered, so a retry can
# duplicate a reply message - never a booking, which is committed before anything is sent.
SEND_ATTEMPTS = 3
SEND_BACKOFF = 0.5  # seconds, doubled per attempt
MAX_RETRY_AFTER = 60.0  # flood control waits longer than this are not waited for

# The reply goes out through Bot.do_api_request, which hands back Telegram's JSON instead of a
# telegram.Message: measured, building that Message (~90 attributes) cost ~140 µs per reply on
# this machine, more than a tenth of a booking, and all we read of it is the message id. PTB
# asks to use send_message instead of do_api_request for known methods; we chose not to.
SEND = "sendMessage"
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.sendMessage'", category=PTBUserWarning)


def _retry_after(err: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22.2+ warns that this becomes a timedelta
        warnings.simplefilter("ignore")
        value: object = err.retry_after
    seconds = getattr(value, "total_seconds", None)
    return float(seconds() if callable(seconds) else value)  # type: ignore[arg-type]


async def _with_retries(call: Callable[[], Awaitable[object]]) -> object:
    delay = SEND_BACKOFF
    for attempt in range(1, SEND_ATTEMPTS + 1):
        try:
            return await call()
        except RetryAfter as err:  # the rate limiter gave up (or is off): wait as asked
            wait = _retry_after(err)
            if attempt == SEND_ATTEMPTS or wait > MAX_RETRY_AFTER:
                raise
            await asyncio.sleep(wait)
        except BadRequest:
            raise  # permanent: the same request fails again
        except NetworkError as err:  # 5xx, connection errors, TimedOut
            if attempt == SEND_ATTEMPTS:
                raise
            log.info("reply attempt %d failed (%s), retrying in %.1f s", attempt, err, delay)
            await asyncio.sleep(delay)
            delay *= 2
    return None


async def send(update: Update, context: ContextTypes.DEFAULT_TYPE, reply: Reply) -> None:
    """Send the reply, then run ``on_sent`` and the ``edits`` (builder, pinned standings).

    A Bot API failure is logged, never undoes what was committed.
    """
    chat = update.effective_chat
    if chat is None:
        return
    sent = await _send_reply(chat.id, context, reply)
    if sent is not None and reply.on_sent is not None:
        on_sent, message_id = reply.on_sent, sent
        try:
            await database(context).write(lambda session: on_sent(session, message_id))
        except Exception:  # the reply is out; remembering its id is a convenience
            log.exception("on_sent for chat %s failed", chat.id)
    await apply_edits(context, chat.id, reply.edits)


async def _send_reply(chat_id: int, context: ContextTypes.DEFAULT_TYPE, reply: Reply) -> int | None:
    if not reply.text and not reply.documents:
        return None
    for _ in range(2):  # a second round only after a ChatMigrated answer
        try:
            return await _deliver(context, chat_id, reply)
        except ChatMigrated as err:  # the group became a supergroup: answer there
            log.info("chat %s migrated to %s; resending the reply", chat_id, err.new_chat_id)
            chat_id = err.new_chat_id
        except Forbidden as err:  # the bot was removed from the chat or blocked
            log.info("reply to chat %s not allowed: %s", chat_id, err)
            return None
        except TelegramError as err:
            log.warning("reply to chat %s failed: %s", chat_id, err)
            return None
    return None


async def _deliver(context: ContextTypes.DEFAULT_TYPE, chat_id: int, reply: Reply) -> int | None:
    """Send the reply; the id of the text message sent, if any."""
    sent: int | None = None
    if reply.text:
        api_kwargs = {"chat_id": chat_id, "text": reply.text, "parse_mode": ParseMode.HTML}
        if reply.buttons:
            api_kwargs["reply_markup"] = markup(reply)
        result = await _with_retries(lambda: context.bot.do_api_request(SEND, api_kwargs))
        sent = result.get("message_id") if isinstance(result, dict) else None
    for doc in reply.documents:
        await _with_retries(
            lambda doc=doc: context.bot.send_document(  # type: ignore[misc]
                chat_id, doc.data, filename=doc.filename, caption=doc.caption or None
            )
        )
    return sent


async def apply_edits(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, edits: tuple[Edit, ...]
) -> None:
    """Edit other bot messages after the commit; failures (message deleted) are only logged."""
    for edit in edits:
        try:
            if edit.text is None:
                await context.bot.edit_message_reply_markup(
                    chat_id, edit.message_id, reply_markup=markup(edit.buttons)
                )
            else:
                await context.bot.edit_message_text(
                    edit.text,
                    chat_id,
                    edit.message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup(edit.buttons),
                )
        except TelegramError as err:
            log.info("edit of message %s in chat %s failed: %s", edit.message_id, chat_id, err)
            gone = (
                isinstance(err, BadRequest) and "message to edit not found" in err.message.lower()
            )
            if gone and edit.on_gone is not None:
                try:
                    await database(context).write(edit.on_gone)
                except Exception:  # forgetting the message is a convenience
                    log.exception("on_gone for message %s failed", edit.message_id)


# --- button taps ------------------------------------------------------------------------------


def callback_command_of(update: Update) -> Command:
    """A button tap as a Command: ``args == (data,)``, ``message_id`` = the tapped message."""
    query = update.callback_query
    assert query is not None
    msg = query.message
    chat = update.effective_chat
    user = query.from_user
    data = query.data or ""
    return Command(
        chat_id=chat.id if chat else 0,
        chat_title=(chat.title or chat.full_name or "") if chat else "",
        user_id=user.id if user else None,
        user_name=user.full_name if user else "",
        update_id=update.update_id,
        args=(data,),
        text=data,
        message_id=msg.message_id if msg else None,
    )


def offered_data(update: Update) -> set[str]:
    """The callback data of the buttons the tapped message carries now (as Telegram says)."""
    query = update.callback_query
    msg = query.message if query else None
    if not isinstance(msg, Message) or msg.reply_markup is None:
        return set()
    return {
        str(b.callback_data)
        for row in msg.reply_markup.inline_keyboard
        for b in row
        if b.callback_data is not None
    }


STALE_BUTTON = "Dieser Knopf gilt nicht mehr."


async def execute_callback(
    update: Update, context: ContextTypes.DEFAULT_TYPE, use_case: CallbackUseCase
) -> None:
    """A button tap, like ``execute``: one transaction, update id stored, a RuleError rolls
    back (and is shown as an alert). The answer edits the tapped message instead of sending a
    new one, and the callback query is always answered.

    Data that is not on a button of the tapped message (forged, or from an older keyboard) is
    refused before anything is read or written.
    """
    query = update.callback_query
    chat = update.effective_chat
    if query is None:
        return
    cmd = callback_command_of(update)
    if (
        chat is None
        or not cmd.text
        or len(cmd.text.encode()) > 64
        or cmd.text not in offered_data(update)
    ):
        await _answer(update, Answer(notice=STALE_BUTTON))
        return
    db = database(context)

    def unit(session: Session) -> Answer:
        lock_chat(session, cmd.chat_id)
        if repo.processed(session, cmd.update_id) is not None:
            return Answer()  # redelivered: the effect is committed already
        answer = use_case(session, cmd)
        repo.mark_processed(session, cmd.update_id, cmd.chat_id, answer.notice)
        return answer

    try:
        answer = await db.write(unit)
    except RuleError as err:
        notice = err.message + (f" {err.hint}" if err.hint else "")
        answer = Answer(notice=notice, alert=True)
    await _answer(update, answer)
    if cmd.message_id is not None and (answer.text is not None or answer.buttons is not None):
        edit = Edit(cmd.message_id, answer.text, answer.buttons or ())
        await apply_edits(context, chat.id, (edit,))
    if answer.send is not None:
        await send(update, context, answer.send)
    await apply_edits(context, chat.id, answer.edits)


async def _answer(update: Update, answer: Answer) -> None:
    query = update.callback_query
    if query is None:
        return
    text = answer.notice if len(answer.notice) <= 200 else answer.notice[:199] + "…"
    try:
        await query.answer(text or None, show_alert=answer.alert and bool(text))
    except TelegramError as err:
        log.info("answerCallbackQuery failed: %s", err)
