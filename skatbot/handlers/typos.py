"""A message that starts like a command none of our handlers took (PTB glue for
``usecases.place.typos``): answered with the nearest commands, or left alone."""

from __future__ import annotations

import re

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes, filters

from skatbot.handlers.runtime import send
from skatbot.usecases.common.reply import Reply
from skatbot.usecases.place.typos import unknown_command_text

# "/stnad", also "/öffnen" (Telegram marks no command there: only a-z, 0-9 and _ make one).
COMMAND_LIKE = filters.TEXT & filters.Regex(re.compile(r"^/[^\s/]"))


async def on_unknown_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    chat = update.effective_chat
    if msg is None or chat is None or not msg.text:
        return
    word, _, target = msg.text.split()[0][1:].partition("@")
    me = context.bot.username or ""
    if target and target.casefold() != me.casefold():
        return  # for another bot
    from skatbot.handlers.routes import commands

    routed = commands(context.application.bot_data.get("routes", ()))
    if word.casefold() in {r.name for r in routed}:
        return  # a route of group 0 took it
    ours = [r.name for r in routed if r.menu]
    addressed = bool(target) or chat.type == ChatType.PRIVATE
    text = unknown_command_text(msg.text, ours, addressed=addressed)
    if text is not None:
        await send(update, context, Reply(text, refusal=True))
