"""Edited messages: a player who fixes a typo by editing their message corrects the booking.

Telegram sends an edit as an ``edited_message`` update. PTB's CommandHandler would take it for
a new command (an edited ``/spiel`` booked a second game, an edited ``/storno 1`` cancelled a
second game), so the route table (routes.py) puts one handler in front of all others (group
-1) that takes every edited update and stops it there: no other handler ever sees an edit.

What an edit does:

* The message of a ``/spiel``, ``/korrigieren`` or ``/eingepasst`` that booked a row (see
  storage/message_links.py; the runtime links them when they are booked): the game is
  corrected exactly as ``/korrigieren N …`` would do it - the current row struck, the new one
  in its place with the same dealer and number - and the bot edits its reply to that message
  to show the new result (a new message if that reply's id is unknown). The new text is read
  as the command it now starts with: ``/spiel Anna grand …`` or ``/spiel passe``,
  ``/eingepasst``, ``/korrigieren N …`` (N must still be the game's number: the number cannot
  be changed by editing). If the game was corrected since (``/korrigieren``, the builder or
  an earlier edit), the current valid row that descends from the message's booking is the one
  corrected.
* An edit that yields exactly the booked game changes nothing and says nothing.
* An edit that cannot be applied changes nothing and is answered with a new message: the
  reason and the ``/korrigieren N …`` line to use (N = the game's current number): the list
  is closed, the game was cancelled (``/spiel …`` to book it anew), a later house-rules row
  depends on it, the new text is refused by the grammar, or the message booked nothing.
* Every other edited message (other commands, typed bids in the builder flow, plain text) is
  ignored: no reply, nothing changed.
* An edit is one transaction with its update id, like a command: a redelivered edit changes
  nothing twice and sends nothing again.
"""

from __future__ import annotations

import logging

from telegram import MessageEntity, Update
from telegram.ext import ApplicationHandlerStop

from skatbot.handlers.bot_state import SkatContext
from skatbot.handlers.durable import Link, Stored
from skatbot.handlers.outbox.handoff import enqueue_stored
from skatbot.handlers.outbox.target import target_of
from skatbot.handlers.routes import editable
from skatbot.handlers.runtime import command_of, database, in_place, once, send, stage
from skatbot.rules.errors import RuleError
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Reply, error_text
from skatbot.usecases.sheet.edits import apply_edit

log = logging.getLogger(__name__)

EDITABLE_COMMANDS = editable()


# --- the edited message -------------------------------------------------------------------------


def command_name(update: Update, bot_username: str | None) -> str | None:
    """The command an edited text message starts with (``spiel`` for ``/spiel@thisbot …``);
    None for other text, captions and commands addressed to another bot."""
    msg = update.edited_message
    if msg is None or not msg.text or not msg.entities:
        return None
    first = msg.entities[0]
    if first.type != MessageEntity.BOT_COMMAND or first.offset != 0:
        return None
    word = msg.parse_entity(first)[1:]
    name, _, addressed = word.partition("@")
    if addressed and (bot_username is None or addressed.casefold() != bot_username.casefold()):
        return None
    return name.casefold()


async def on_edited(update: Update, context: SkatContext) -> None:
    """Every edited update ends here (group -1): handled or ignored, never run as new."""
    try:
        await handle_edit(update, context)
    except Exception as err:  # the error handlers report it; the edit is still not run again
        await context.application.process_error(update, err)
    raise ApplicationHandlerStop


async def handle_edit(update: Update, context: SkatContext) -> None:
    try:
        username: str | None = context.bot.username
    except RuntimeError:  # not initialised (getMe not called): only unaddressed commands
        username = None
    name = command_name(update, username)
    if name not in EDITABLE_COMMANDS:
        return
    try:
        cmd = command_of(update)
    except RuleError as err:
        await send(update, context, Reply(error_text(err), refusal=True))
        return
    cmd = await in_place(context, cmd)
    if cmd.source_message_id is None:
        return

    target = target_of(update)

    def unit(session: Session) -> list[Stored]:
        done = once(session, cmd, lambda: apply_edit(session, cmd, name), lambda r: r[1])
        if done is None:
            return []  # redelivered: the effect is committed already
        reply, _, link = done
        answers = None if link is None else Link(link.chat_id, link.message_id, link.update_id)
        return stage(session, target, cmd.update_id, reply, answers)

    try:
        rows = await database(context).write(unit)
    except RuleError as err:  # rolled back: nothing changed
        await send(update, context, Reply(error_text(err), refusal=True))
        return
    enqueue_stored(context.bot, context.bot_data, rows)
