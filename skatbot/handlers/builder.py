"""The game builder's PTB glue: its buttons (``v1:b:…``) and a bid typed as a reply to it.

The use cases are ``usecases/sheet/builder/flow.py``. A builder opened on behalf of a chat (an anonymous
admin, a channel) may be worked by the chat's admins; whether the sender is one needs the Bot
API, so it is asked here, before the transaction, and passed as ``Command.is_admin``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar

from telegram import Update

from skatbot.handlers.admin import is_chat_admin
from skatbot.handlers.bot_state import SkatContext
from skatbot.handlers.outbox.target import topic_of
from skatbot.handlers.runtime import database, execute, execute_callback, place_of, sender_of
from skatbot.storage import builders
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Answer, Command, Reply
from skatbot.usecases.sheet.builder.flow import DATA_BUILDER, bid_text, builder_tap, chat_owned

T = TypeVar("T")


async def _admin_for_chat_owned(
    update: Update,
    context: SkatContext,
    *,
    builder_id: int | None = None,
    message_id: int | None = None,
) -> bool:
    """For a builder opened on behalf of a chat, whether the sender is a chat admin.

    One short read finds the builder's owner; only a chat-owned builder costs a
    getChatMember call, so ordinary taps ask Telegram nothing.
    """
    chat = update.effective_chat
    if chat is None:
        return False
    # The builder lives in the place of the topic its message is in.
    chat_id = await place_of(context, chat.id, topic_of(update.effective_message) or 0)
    owner_id = await database(context).read(
        lambda s: builders.owner_of(s, chat_id, builder_id=builder_id, message_id=message_id)
    )
    if not chat_owned(owner_id) or owner_id == sender_of(update)[0]:
        return False
    return await is_chat_admin(update, context)


def _as_admin(use_case: Callable[[Session, Command], T]) -> Callable[[Session, Command], T]:
    return lambda s, c: use_case(s, dataclasses.replace(c, is_admin=True))


async def on_builder_button(update: Update, context: SkatContext) -> None:
    """A tap on the builder's own buttons (``v1:b:<builder id>:<op>``)."""
    query = update.callback_query
    m = DATA_BUILDER.fullmatch(query.data or "") if query is not None else None
    use_case: Callable[[Session, Command], Answer] = builder_tap
    if m is not None and await _admin_for_chat_owned(update, context, builder_id=int(m[1])):
        use_case = _as_admin(builder_tap)
    await execute_callback(update, context, use_case)


async def on_reply(update: Update, context: SkatContext) -> None:
    """A text reply to one of the bot's messages: a bid the builder asked for (a public
    builder's: nobody can reply to an ephemeral message, whose builder offers the bids as
    buttons)."""
    msg = update.effective_message
    replied = msg.reply_to_message if msg else None
    if replied is None or replied.from_user is None or replied.from_user.id != context.bot.id:
        return
    if replied.forum_topic_created is not None:
        return  # a message in a topic the bot made "replies" to the topic's creation
    reply_to = replied.message_id

    def use_case(s: Session, c: Command) -> Reply:
        return bid_text(s, c, reply_to)

    run: Callable[[Session, Command], Reply] = use_case
    if await _admin_for_chat_owned(update, context, message_id=reply_to):
        run = _as_admin(use_case)
    await execute(update, context, run)
