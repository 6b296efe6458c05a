"""A message that starts like a command none of our handlers took (PTB glue for
``usecases.place.typos``): answered with the nearest commands, or left alone."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import Update
from telegram.constants import ChatType

from skatbot.handlers.bot_state import SkatContext
from skatbot.handlers.route import Route
from skatbot.handlers.routes import commands
from skatbot.handlers.runtime import send
from skatbot.usecases.common.reply import Reply
from skatbot.usecases.place.typos import unknown_command_text


async def on_unknown_command(update: Update, context: SkatContext) -> None:
    msg = update.effective_message
    chat = update.effective_chat
    if msg is None or chat is None or not msg.text:
        return
    private = chat.type == ChatType.PRIVATE
    routes = context.bot_data.routes
    text = unknown_answer(msg.text, routes, context.bot.username or "", private=private)
    if text is not None:
        await send(update, context, Reply(text, refusal=True))


def unknown_answer(text: str, routes: Sequence[Route], me: str, *, private: bool) -> str | None:
    """The answer to ``text``, a message that starts like a command, when no route took it:
    the nearest commands, or ``None`` (for another bot, a command routed after all, or a
    word too far from ours in a group where it may be meant for someone else)."""
    word, _, target = text.split()[0][1:].partition("@")
    if target and target.casefold() != me.casefold():
        return None  # for another bot
    routed = commands(routes)
    if word.casefold() in {r.name for r in routed}:
        return None  # a route of group 0 took it
    ours = [r.name for r in routed if r.menu]
    return unknown_command_text(text, ours, addressed=bool(target) or private)
