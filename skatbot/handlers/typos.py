"""A message that starts like a command none of our handlers took (PTB glue for
``usecases.place.typos``): answered with the nearest commands, or left alone."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes, filters

from skatbot.handlers.runtime import send
from skatbot.usecases.common.reply import Reply
from skatbot.usecases.place.typos import unknown_command_text

if TYPE_CHECKING:
    from skatbot.handlers.routes import Route

# "/stnad", also "/öffnen" (Telegram marks no command there: only a-z, 0-9 and _ make one).
LOOKS_LIKE_COMMAND = re.compile(r"^/[^\s/]")
COMMAND_LIKE = filters.TEXT & filters.Regex(LOOKS_LIKE_COMMAND)


async def on_unknown_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    chat = update.effective_chat
    if msg is None or chat is None or not msg.text:
        return
    routes = context.application.bot_data.get("routes", ())
    private = chat.type == ChatType.PRIVATE
    text = unknown_answer(msg.text, routes, context.bot.username or "", private=private)
    if text is not None:
        await send(update, context, Reply(text, refusal=True))


def unknown_answer(text: str, routes: Sequence[Route], me: str, *, private: bool) -> str | None:
    """The answer to ``text``, a message that starts like a command, when no route took it:
    the nearest commands, or ``None`` (for another bot, a command routed after all, or a
    word too far from ours in a group where it may be meant for someone else)."""
    from skatbot.handlers.routes import commands  # routes.py imports this module

    word, _, target = text.split()[0][1:].partition("@")
    if target and target.casefold() != me.casefold():
        return None  # for another bot
    routed = commands(routes)
    if word.casefold() in {r.name for r in routed}:
        return None  # a route of group 0 took it
    ours = [r.name for r in routed if r.menu]
    return unknown_command_text(text, ours, addressed=bool(target) or private)
