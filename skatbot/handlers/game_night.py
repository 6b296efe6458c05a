"""Telegram glue of game nights (``usecases.gamenight.nights``): a vote in a night's poll
(``poll_answer``), and closing the nights whose start has come.

No job queue: ``close_due_forever`` runs beside the bot (started with it, so a night that fell
due while the bot was down closes at start-up) and looks every ``SKATBOT_NIGHT_CHECK``
seconds (default 30) at the nights stored as open; a vote looks too. Closing is a state change
in one write transaction, so two instances (or a vote and the loop) close a night once.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
from typing import TYPE_CHECKING

from telegram import Update

from skatbot.handlers import durable
from skatbot.handlers.bot_state import SkatContext
from skatbot.handlers.outbox.handoff import enqueue_stored
from skatbot.handlers.runtime import database
from skatbot.storage import game_nights
from skatbot.storage.unit import Session

if TYPE_CHECKING:
    from skatbot.handlers.bot_state import BotState
    from skatbot.handlers.outbox.transport import Transport

log = logging.getLogger(__name__)


def check_every() -> float:
    """Seconds between two looks at the open nights."""
    try:
        return max(0.05, float(os.environ.get("SKATBOT_NIGHT_CHECK", "30")))
    except ValueError:
        return 30.0


async def on_poll_answer(update: Update, context: SkatContext) -> None:
    """A member voted (or took the vote back) in one of the bot's polls."""
    answer = update.poll_answer
    if answer is None or answer.user is None:
        return  # a vote as a chat (voter_chat): no person, no seat
    from skatbot.usecases.gamenight.nights import vote

    user = answer.user
    options = tuple(answer.option_ids)
    db = database(context)
    await db.write(
        lambda s: vote(s, answer.poll_id, user.id, user.first_name, user.last_name or "", options)
    )
    await close_due_now(context.bot, context.bot_data)


async def close_due_now(bot: Transport, state: BotState, now: dt.datetime | None = None) -> int:
    """Close the nights whose start has come and queue what they say; how many."""
    db = state.database
    if db is None:
        return 0
    moment = now or dt.datetime.now(dt.UTC)
    # a read first: most looks find nothing due, and the use cases are imported only then
    # (a bot start imports no feature it does not need yet)
    if not await db.read(lambda s: bool(game_nights.due(s, moment))):
        return 0
    from skatbot.usecases.gamenight.nights import close_due

    def unit(session: Session) -> list[durable.Stored]:
        rows: list[durable.Stored] = []
        for chat_id, thread_id, reply in close_due(session, moment):
            rows.extend(durable.store(session, chat_id, thread_id or None, None, reply))
        return rows

    rows = await db.write(unit)
    enqueue_stored(bot, state, rows)
    return len(rows)


async def close_due_forever(bot: Transport, state: BotState) -> None:
    """Close due nights now and every ``check_every()`` seconds; runs until cancelled."""
    while True:
        try:
            await close_due_now(bot, state)
        except Exception:
            log.exception("closing due game nights failed")
        await asyncio.sleep(check_every())
