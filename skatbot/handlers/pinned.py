"""/anheften: a pinned standings message that the bot keeps up to date.

Sending and pinning it lives here; keeping it up to date is the use cases' part
(``skatbot.usecases.sheet.standings``, applied by every change through ``usecases.sheet.booking.book``).
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError

from skatbot.handlers.bot_state import SkatContext
from skatbot.handlers.outbox.delivery import Delivery
from skatbot.handlers.outbox.handoff import enqueue
from skatbot.handlers.outbox.target import target_of
from skatbot.handlers.runtime import command_of, database, in_place, send
from skatbot.rules.errors import RuleError
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Reply, error_text
from skatbot.usecases.sheet.standings import pinned_text, store

log = logging.getLogger(__name__)


NO_RIGHTS = (
    "⚠️ Anheften darf ich hier nicht.\n"
    "👉 Gib mir das Admin-Recht „Nachrichten anheften“ und schick /anheften noch einmal. "
    "Die Nachricht oben halte ich trotzdem aktuell."
)


async def cmd_anheften(update: Update, context: SkatContext) -> None:
    """Send the standings, pin them, remember the message id (then keep it up to date)."""
    chat = update.effective_chat
    if chat is None:
        return
    db = database(context)
    try:
        cmd = await in_place(context, command_of(update))
        text = await db.read(lambda s: pinned_text(s, cmd))
    except RuleError as err:
        await send(update, context, Reply(error_text(err), refusal=True))
        return
    if text is None:
        return  # redelivered: done before
    chat_id = cmd.place_id

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
        pinned = await d.pin(message_id)

        def remember(session: Session) -> None:
            store(session, chat_id, message_id)
            if lists_store.processed(session, cmd.update_id) is None:
                lists_store.mark_processed(session, cmd.update_id, chat_id, "")

        await db.write(remember)
        if not pinned:
            await d.send_text(NO_RIGHTS)

    target = target_of(update)
    if target is not None:
        enqueue(context.bot, context.bot_data, target, pin)
