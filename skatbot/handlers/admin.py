"""Chat administration in Telegram: who is a chat admin (getChatMember), the button of
``/loeschen`` (the use cases: ``usecases/place/admin.py``), group → supergroup moves, commands
addressed to other bots, and the bot's own membership.

When a group becomes a supergroup, Telegram posts ``migrate_to_chat_id`` in the old chat and
``migrate_from_chat_id`` in the new one (either may come first, both may come). Each moves
every row that belongs to the old chat id to the new one, in one transaction
(``storage.chats.migrate_chat``); the second finds nothing left to move. The chat's topics go
along (their data is keyed by place ids, which do not change).

Who is who: a message on behalf of a chat counts as that chat (``runtime.sender_of``), so
channel X and channel Y are two people and the placeholder users owning nothing. An
anonymous admin writes as the group itself and is an admin without asking Telegram.

``/spiel@otherbot …`` is for another bot: a group -1 handler ends such updates before any
handler of ours (commands, replies, edits) sees them. ``my_chat_member`` (the bot removed,
kicked, added) deletes nothing: a chat's data is deleted by ``/loeschen`` and nothing else.
Whether it made the bot an administrator is kept for the outbox (an administrator may answer
a typist alone: ``outbox.ephemeral``).
"""

from __future__ import annotations

import logging

from telegram import ChatMember, Message, MessageEntity, Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (
    ApplicationHandlerStop,
    filters,
)

from skatbot.handlers.bot_state import SkatContext
from skatbot.handlers.runtime import database, execute
from skatbot.storage import chats
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import PLACEHOLDER_IDS
from skatbot.usecases.place.admin import DELETE_DATA, confirm_button

log = logging.getLogger(__name__)


async def is_chat_admin(update: Update, context: SkatContext) -> bool:
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


async def on_delete_button(update: Update, context: SkatContext) -> None:
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
    what, nonce = match.group(1) or "", match.group(2)
    is_admin = await is_chat_admin(update, context)
    await execute(update, context, lambda s, c: confirm_button(s, c, is_admin, what, nonce))


# --- group → supergroup -----------------------------------------------------------------------


async def on_migrate(update: Update, context: SkatContext) -> None:
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
        moved = chats.migrate_chat(session, old_id, new_id)
        if lists_store.processed(session, update_id) is None:
            lists_store.mark_processed(session, update_id, new_id, "")
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


async def ignore_other_bots_command(update: Update, context: SkatContext) -> None:
    """``/spiel@otherbot …`` is meant for another bot: no handler of ours may see it."""
    log.debug("update %s: command for another bot ignored", update.update_id)
    raise ApplicationHandlerStop


# --- the bot's own membership ---------------------------------------------------------------


async def on_my_chat_member(update: Update, context: SkatContext) -> None:
    """The bot was added, removed, kicked or promoted: logged, nothing stored or deleted.

    A removed bot keeps the chat's lists; added again, it finds them where they were
    (``/loeschen`` is the only way to delete a chat's data). Whether the bot administers the
    chat now goes to the outbox (``EphemeralRefusals.administers``): an administrator sends
    the refusal of a typed command to the typist alone (docs/ephemeral.md).
    """
    change = update.my_chat_member
    if change is None:
        return
    context.bot_data.outbox.ephemeral.administers(
        change.chat.id, change.new_chat_member.status == ChatMember.ADMINISTRATOR
    )
    log.info(
        "bot in chat %s: %s -> %s (by user %s)",
        change.chat.id,
        change.old_chat_member.status,
        change.new_chat_member.status,
        change.from_user.id if change.from_user else "?",
    )
