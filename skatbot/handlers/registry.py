"""Registration: the route table (routes.py) turned into PTB handlers and the command menu."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Coroutine, Sequence
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import (
    BaseHandler,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    PollAnswerHandler,
    TypeHandler,
)

from skatbot.handlers import admin
from skatbot.handlers.bot_state import SkatApplication, SkatContext
from skatbot.handlers.resilience import remember_topic_name
from skatbot.handlers.route import Callback, Kind, Route
from skatbot.handlers.routes import ROUTES, allowed_updates, ephemeral_commands, menu
from skatbot.handlers.runtime import execute, execute_callback, send
from skatbot.storage.database import transient_database_error
from skatbot.usecases.common.reply import Reply

log = logging.getLogger(__name__)


def command_handler(route: Route) -> Callback:
    """The one wrapper of a command route: what its flags ask for around its use case."""

    async def handle(update: Update, context: SkatContext) -> None:
        # A use case is sync code inside a transaction and cannot ask Telegram; commands whose
        # permission depends on chat admins ask first (one getChatMember call).
        is_admin = await admin.is_chat_admin(update, context) if route.asks_admin else False
        await execute(
            update,
            context,
            route.use_case,
            write=route.write,
            is_admin=is_admin,
            offload=route.heavy,
            link=route.editable,  # remember which message booked what (edits)
            ask_admin=lambda: admin.is_chat_admin(update, context),
        )

    handle.__name__ = f"cmd_{route.name}"
    return handle


def _tap_handler(route: Route) -> Callback:
    async def handle(update: Update, context: SkatContext) -> None:
        # a button whose right admits the chat's admins asks Telegram about the tapper first
        is_admin = await admin.is_chat_admin(update, context) if route.asks_admin else False
        await execute_callback(
            update, context, route.use_case, offload=route.heavy, is_admin=is_admin
        )

    handle.__name__ = f"tap_{route.name}"
    return handle


def counted(name: str, callback: Callback) -> Callback:
    """``callback``, each call counted as the command ``name`` (``BotState.metrics``)."""

    @functools.wraps(callback)
    async def handle(update: Update, context: SkatContext) -> None:
        context.bot_data.metrics.command(name)
        await callback(update, context)

    return handle


ERROR_NOTICE = "⚠️ Da ist etwas schiefgegangen – nichts wurde geändert. Bitte noch einmal versuchen."


def transient(error: object) -> bool:
    """An error that may not happen again: the database or the network was away for a
    moment. Anything else (a bug, bad data) fails the same way every time."""
    from telegram.error import NetworkError

    if transient_database_error(error):
        return True
    return isinstance(error, (NetworkError, ConnectionError, TimeoutError))


async def on_error(update: object, context: SkatContext) -> None:
    """Last resort: log, and tell the chat something went wrong (never crash the bot).

    Behind a webhook a transient error is answered 500 and Telegram delivers the update
    again, so the chat is told nothing yet (it would get the notice on every retry)."""
    log.exception(
        "unhandled error for update %s", getattr(update, "update_id", "?"), exc_info=context.error
    )
    if context.bot_data.redelivered_on_failure and transient(context.error):
        return
    if isinstance(update, Update) and update.effective_chat is not None:
        await send(update, context, Reply(ERROR_NOTICE))


async def post_init(app: SkatApplication) -> None:
    """Queue the replies a previous run left in the outbox (they go out before anything
    this run answers), and register the command menu (German descriptions) for groups and
    private chats."""
    from skatbot.handlers.outbox.handoff import resume

    try:
        await resume(app.bot, app.bot_data)
    except Exception:  # never keep the bot from starting
        log.exception("resuming the outbox failed")
    state = app.bot_data
    if state.database is not None and state.pruner is None:
        from skatbot.handlers.game_night import close_due_forever

        # one task for the housekeeping loops: the runner cancels it at shutdown
        state.pruner = asyncio.get_running_loop().create_task(
            _together(prune_forever(state.database), close_due_forever(app.bot, state))
        )
    # PTB 22 knows no BotCommand.is_ephemeral (Bot API 10.2): it goes as an api_kwarg; a
    # server before 10.2 ignores it, and the commands come as ordinary messages.
    ephemeral = ephemeral_commands(state.routes)
    commands = [
        BotCommand(
            name,
            text[:256],
            api_kwargs={"is_ephemeral": True} if name in ephemeral else None,
        )
        for name, text in menu(state.routes)
    ]
    try:
        await app.bot.set_my_commands(commands, scope=BotCommandScopeAllGroupChats())
        await app.bot.set_my_commands(commands, scope=BotCommandScopeAllPrivateChats())
    except Exception as err:  # the menu is a convenience; the bot works without it
        log.warning("setMyCommands failed: %s", err)


async def _together(*loops: Coroutine[Any, Any, None]) -> None:
    await asyncio.gather(*loops)


PRUNE_EVERY = 3600.0  # seconds between prunings of the remembered update ids


async def prune_forever(db: Any) -> None:
    """Forget old update ids now and then (``storage.lists.prune_processed``); runs until cancelled."""
    from skatbot.storage import lists as lists_store

    while True:
        try:
            pruned = await db.write(lists_store.prune_processed)
            if pruned:
                log.info("forgot %d processed update ids", pruned)
        except Exception:
            log.exception("pruning processed updates failed")
        await asyncio.sleep(PRUNE_EVERY)


# The update types the bot handles; the poller and setWebhook ask Telegram for these only.
ALLOWED_UPDATES = allowed_updates(ROUTES)


def handler_of(route: Route) -> BaseHandler:  # type: ignore[type-arg]
    """The PTB handler of one route."""
    if route.kind is Kind.COMMAND:
        callback = command_handler(route) if route.is_use_case else route.run
        return CommandHandler(route.name, counted(route.name, callback))  # type: ignore[arg-type]
    if route.kind is Kind.CALLBACK:
        callback = _tap_handler(route) if route.is_use_case else route.run
        return CallbackQueryHandler(callback, pattern=route.pattern)  # type: ignore[arg-type]
    if route.kind is Kind.MESSAGE:
        assert route.filter is not None
        return MessageHandler(route.filter, route.run)  # type: ignore[arg-type]
    if route.kind is Kind.MY_CHAT_MEMBER:
        return ChatMemberHandler(route.run, ChatMemberHandler.MY_CHAT_MEMBER)  # type: ignore[arg-type]
    if route.kind is Kind.POLL_ANSWER:
        return PollAnswerHandler(route.run)  # type: ignore[arg-type]
    assert route.kind is Kind.INLINE
    return InlineQueryHandler(route.run)  # type: ignore[arg-type]


def register(app: SkatApplication, routes: Sequence[Route] = ROUTES) -> None:
    """Every route, in table order (PTB tries the handlers of a group in that order)."""
    names = [r.name for r in routes if r.kind is Kind.COMMAND]
    if len(names) != len(set(names)):
        raise ValueError(
            f"a command routed twice: {sorted(n for n in names if names.count(n) > 1)}"
        )
    app.bot_data.routes = list(routes)
    app.bot_data.allowed_updates = allowed_updates(routes)
    # Before every route: the names of forum topics, for replies into a closed topic.
    app.add_handler(TypeHandler(Update, remember_topic_name, block=True), group=-100)
    for route in routes:
        app.add_handler(handler_of(route), group=route.group)
    app.add_error_handler(on_error)
