"""What the bot does when one update, one upload or one topic cannot be served as planned.

* An update that cannot be read (PTB's parser raises on it, or it is one Telegram cannot
  have sent: an id beyond 64 bits, a field of the wrong type, see ``update_check``) is
  logged with its id in one line and confirmed like any other; the chat it came from, if the
  raw JSON names a real one, gets one short notice. Without this a single such update would
  stop the poller, and Telegram would hand it out again after every restart.
* A reply refused because its forum topic is closed goes to the chat's General topic,
  headed by the topic's name (remembered here from the topic messages the bot has seen, in
  the application's outbox; the outbox's ``topics`` words the note, and the one for a
  document or photo that could not be sent).
"""

from __future__ import annotations

import logging
from html import escape
from typing import Any

from telegram import Update

from skatbot.handlers.bot_state import BotState, SkatContext
from skatbot.handlers.outbox.handoff import enqueue
from skatbot.handlers.outbox.target import Target
from skatbot.handlers.update_check import oddity, valid_id

log = logging.getLogger(__name__)

UNREADABLE_NOTICE = (
    "⚠️ Diese Nachricht konnte ich nicht lesen – nichts wurde geändert. "
    "Bitte den Befehl noch einmal als neue Nachricht schicken."
)


def _chat_and_thread(data: dict[str, Any]) -> tuple[int, int | None] | None:
    """The chat (and forum topic) of a raw update, looked up as loosely as possible: the
    update could not be parsed, so any field may be missing or of the wrong type."""
    for key, value in data.items():
        if key == "update_id" or not isinstance(value, dict):
            continue
        for holder in (value, value.get("message")):
            if not isinstance(holder, dict):
                continue
            chat = holder.get("chat")
            chat_id = chat.get("id") if isinstance(chat, dict) else None
            if valid_id(chat_id):  # not 0, not beyond 64 bits: a chat Telegram can have
                thread = holder.get("message_thread_id")
                topic = holder.get("is_topic_message") is True and valid_id(thread)
                return chat_id, thread if topic else None
    return None


def unreadable_target(data: object) -> Target | None:
    """Where to tell about an update that could not be parsed (``None``: nowhere)."""
    if not isinstance(data, dict):
        return None
    found = _chat_and_thread(data)
    return Target(found[0], found[1]) if found else None


def update_id_of(data: object) -> int | None:
    value = data.get("update_id") if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_update(data: object, bot: Any) -> Update | None:
    """``Update.de_json`` that never raises: ``None`` for an update PTB cannot read."""
    try:
        if not isinstance(data, dict) or update_id_of(data) is None:
            raise ValueError("not an update object")
        odd = oddity(data)
        if odd is not None:
            raise ValueError(odd)
        update = Update.de_json(data, bot)
    except Exception as err:
        reason = " ".join(str(err).split())  # one line, whatever the exception says
        log.warning(
            "update %s cannot be read (%s: %s); confirmed without processing",
            update_id_of(data),
            err.__class__.__name__,
            reason if len(reason) <= 200 else reason[:197] + "...",
        )
        return None
    return update


def tell_unreadable(bot: Any, state: BotState, data: object) -> None:
    """Queue the one notice for an unreadable update, if it names a chat."""
    target = unreadable_target(data)
    if target is None:
        return
    text = escape(UNREADABLE_NOTICE)
    enqueue(bot, state, target, lambda d: d.send_text(text))


# -- names of forum topics ---------------------------------------------------------------------


def _created_name(message: object) -> str | None:
    for field in ("forum_topic_created", "forum_topic_edited"):
        info = getattr(message, field, None)
        name = getattr(info, "name", None)
        if isinstance(name, str) and name:
            return name
    return None


async def remember_topic_name(update: object, context: SkatContext) -> None:
    """Note the name of the forum topic an update comes from. Telegram names it in the topic's
    creation message, which every message of the topic carries as ``reply_to_message`` unless
    it replies to another one; a rename arrives as ``forum_topic_edited``."""
    if not isinstance(update, Update):
        return
    msg = update.effective_message
    chat = update.effective_chat
    if msg is None or chat is None or not getattr(msg, "is_topic_message", False):
        return
    thread = msg.message_thread_id
    if not isinstance(thread, int):
        return
    name = _created_name(msg) or _created_name(msg.reply_to_message)
    if name is None:
        return
    context.bot_data.outbox.topic_names.remember(chat.id, thread, name)
