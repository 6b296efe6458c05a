"""All Telegram registration in one place: one small async function per command."""

from __future__ import annotations

import logging
from types import ModuleType

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import Application, CommandHandler, ContextTypes, InlineQueryHandler

from skatbot.handlers import (
    admin,
    builder,
    documents,
    edits,
    evening,
    house_ops,
    inline,
    sheet_ops,
    tournament_ops,
)
from skatbot.handlers import help as help_ops
from skatbot.handlers.reply import Reply
from skatbot.handlers.runtime import UseCase, execute, send

log = logging.getLogger(__name__)

# Feature modules (tournament, documents, house rules, the evening) each export COMMANDS like the dict below,
# and may list ADMIN_COMMANDS (getChatMember asked first) and HEAVY_COMMANDS (worker thread).
FEATURES: list[ModuleType] = [documents, tournament_ops, house_ops, evening]

# command -> (use case, writes?); feature modules export their own COMMANDS, merged below.
# PTB tries the handlers in registration order: the commands of every deal come first.
COMMANDS: dict[str, tuple[UseCase, bool]] = {
    "spiel": (builder.spiel, True),  # without words: the button builder
    "eingepasst": (sheet_ops.eingepasst, True),
    "start": (help_ops.start, False),
    "hilfe": (help_ops.hilfe, False),
    "help": (help_ops.hilfe, False),
    "neu": (sheet_ops.neu, True),
    "korrigieren": (sheet_ops.korrigieren, True),
    "storno": (sheet_ops.storno, True),
    "umbenennen": (sheet_ops.umbenennen, True),
    "geber": (sheet_ops.geber, True),
    "serie": (sheet_ops.serie, True),
    "stand": (sheet_ops.stand, False),
    "liste": (sheet_ops.liste, False),
    "wert": (sheet_ops.wert, False),
    "export": (sheet_ops.export, False),
}


def _handler(  # type: ignore[no-untyped-def]
    use_case: UseCase, write: bool, ask_admin: bool = False, heavy: bool = False
):
    async def handle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        # A use case is sync code inside a transaction and cannot ask Telegram; commands whose
        # permission depends on chat admins ask first (one getChatMember call).
        is_admin = await admin.is_chat_admin(update, context) if ask_admin else False
        await execute(update, context, use_case, write=write, is_admin=is_admin, offload=heavy)

    handle.__name__ = f"cmd_{use_case.__name__}"
    return handle


ERROR_NOTICE = "⚠️ Da ist etwas schiefgegangen – nichts wurde geändert. Bitte noch einmal versuchen."


def transient(error: object) -> bool:
    """An error that may not happen again: the database or the network was away for a
    moment. Anything else (a bug, bad data) fails the same way every time."""
    from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout
    from telegram.error import NetworkError

    kinds = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout, NetworkError)
    return isinstance(error, (*kinds, ConnectionError, TimeoutError))


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Last resort: log, and tell the chat something went wrong (never crash the bot).

    Behind a webhook a transient error is answered 500 and Telegram delivers the update
    again, so the chat is told nothing yet (it would get the notice on every retry)."""
    log.exception(
        "unhandled error for update %s", getattr(update, "update_id", "?"), exc_info=context.error
    )
    if context.application.bot_data.get("redelivered_on_failure") and transient(context.error):
        return
    if isinstance(update, Update) and update.effective_chat is not None:
        await send(update, context, Reply(ERROR_NOTICE))


async def post_init(app: Application) -> None:  # type: ignore[type-arg]
    """Register the command menu (German descriptions) for groups and private chats."""
    commands = [BotCommand(name, text[:256]) for name, text in help_ops.COMMANDS]
    try:
        await app.bot.set_my_commands(commands, scope=BotCommandScopeAllGroupChats())
        await app.bot.set_my_commands(commands, scope=BotCommandScopeAllPrivateChats())
    except Exception as err:  # the menu is a convenience; the bot works without it
        log.warning("setMyCommands failed: %s", err)


def all_commands() -> dict[str, tuple[UseCase, bool]]:
    merged = dict(COMMANDS)
    for module in FEATURES:
        merged.update(module.COMMANDS)
    return merged


# The update types the bot handles; the poller and setWebhook ask Telegram for these only.
ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "inline_query", "my_chat_member"]


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.bot_data["allowed_updates"] = ALLOWED_UPDATES
    ask_admin = {name for module in FEATURES for name in getattr(module, "ADMIN_COMMANDS", ())}
    # Units that take long (PDFs, tournament-sized work) run in a worker thread, see Database.
    heavy = {name for module in FEATURES for name in getattr(module, "HEAVY_COMMANDS", ())}
    # Command handlers first (each matches its own command only, so the order among them and
    # before the catch-alls below changes no routing, only how many PTB tries per /spiel).
    for name, (use_case, write) in all_commands().items():
        if name in edits.EDITABLE:  # remember which message booked what (edited entries)
            use_case = edits.remembering(name, use_case)
        handler = _handler(use_case, write, name in ask_admin, name in heavy)
        app.add_handler(CommandHandler(name, handler))
    admin.register(app)  # /loeschen, its button, group->supergroup moves (before catch-alls)
    documents.register(app)  # the buttons of /abschluss's question (before the builder's)
    builder.register(app)  # the game builder's buttons, /anheften, bids typed as replies
    app.add_handler(InlineQueryHandler(inline.on_inline_query))  # "@bot grand ohne 1 hand"
    edits.register(app)  # group -1: edited messages never run as new commands
    app.add_error_handler(on_error)
