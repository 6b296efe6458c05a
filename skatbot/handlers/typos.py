"""A message that starts like a command none of our handlers took (PTB glue for
``usecases.place.typos``): a command typed with umlauts (/rückgängig) is run as the route
it spells; anything else is answered with the commands it means or is near, or left alone.

The rule for groups: a command addressed to another bot (/x@otherbot) never gets here (a
group -1 handler ends it, ``admin.FOR_ANOTHER_BOT``); an unknown bare command in a group is
answered when it means or is close to one of ours, since other bots in the group may know
the rest; in a private chat and as /x@thisbot every one is answered."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import Update
from telegram.constants import ChatType

from skatbot.handlers.bot_state import SkatContext
from skatbot.handlers.command_like import LOOKS_LIKE_COMMAND
from skatbot.handlers.route import Route
from skatbot.handlers.routes import commands
from skatbot.handlers.runtime import send
from skatbot.usecases.common.reply import Reply
from skatbot.usecases.place.typos import typed_as, unknown_command_text


async def on_unknown_command(update: Update, context: SkatContext) -> None:
    msg = update.effective_message
    chat = update.effective_chat
    if msg is None or chat is None or not msg.text:
        return
    private = chat.type == ChatType.PRIVATE
    routes = context.bot_data.routes
    me = context.bot.username or ""
    spelled = spelled_route(msg.text, routes, me)
    if spelled is not None:
        from skatbot.handlers.registry import command_handler

        await command_handler(spelled)(update, context)
        return
    text = unknown_answer(msg.text, routes, me, private=private)
    if text is not None:
        await send(update, context, Reply(text, refusal=True))


def spelled_route(text: str, routes: Sequence[Route], me: str) -> Route | None:
    """The route ``text`` runs when its command is one players type with umlauts
    (/rückgängig is /rueckgaengig), addressed to no other bot."""
    if not LOOKS_LIKE_COMMAND.match(text):
        return None
    word, _, target = text.split()[0][1:].partition("@")
    if target and target.casefold() != me.casefold():
        return None
    routed = commands(routes)
    name = typed_as(word, [r.name for r in routed])
    return next((r for r in routed if r.name == name), None)


def unknown_answer(text: str, routes: Sequence[Route], me: str, *, private: bool) -> str | None:
    """The answer to ``text``, a message that starts like a command, when no route took it:
    the commands it means or is near, or ``None`` (for another bot, a command routed after
    all, or a word neither meaning nor near ours in a group where it may be meant for
    someone else)."""
    word, _, target = text.split()[0][1:].partition("@")
    if target and target.casefold() != me.casefold():
        return None  # for another bot
    routed = commands(routes)
    if word.casefold() in {r.name for r in routed}:
        return None  # a route of group 0 took it
    return unknown_command_text(text, [r.name for r in routed], addressed=bool(target) or private)
