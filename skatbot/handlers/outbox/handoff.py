"""Handing replies to the application's outbox: queued, stored, resumed after a restart.

The application holds one ``Outbox`` (``BotState.outbox``, made by ``skatbot.app``);
everything the outbox learns while it runs lives in it. An update's effect is committed
before anything is sent; its stored reply rows (``durable.store``) are then queued here and
the update counts as done. At start-up ``resume`` queues the rows a previous run left.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING

from skatbot.handlers import durable
from skatbot.handlers.outbox.delivery import Delivery, submit_stored
from skatbot.handlers.outbox.target import Target
from skatbot.storage import outbox as stored

if TYPE_CHECKING:
    from skatbot.handlers.bot_state import BotState
    from skatbot.handlers.outbox.transport import Transport

log = logging.getLogger(__name__)


def enqueue_stored(bot: Transport, state: BotState, rows: list[durable.Stored]) -> None:
    """Queue the rows an update just stored (``durable.store``), in their order."""
    db = state.database
    assert db is not None, "stored rows come from the application's database"
    for row in rows:
        submit_stored(bot, state.outbox, db, row)


async def resume(bot: Transport, state: BotState) -> int:
    """Queue every outbox row a previous run left undelivered, oldest first (before any
    update of this run is handled). Returns how many."""
    db = state.database
    if db is None:
        return 0
    outbox = state.outbox
    pending = await db.read(stored.pending)
    for row in pending:
        try:
            reply, pin, link = durable.decode(row.payload, row.blob)
        except (ValueError, KeyError, TypeError):
            log.exception("outbox row %s cannot be read; dropped", row.id)
            await db.write(partial(stored.done, row_id=row.id))
            continue
        item = durable.Stored(row.id, row.chat_id, row.thread_id, reply, pin, row.update_id, link)
        submit_stored(bot, outbox, db, item, done=row.steps)
    if pending:
        log.info("outbox: %d replies from the previous run queued", len(pending))
    return len(pending)


def enqueue(
    bot: Transport,
    state: BotState,
    target: Target,
    run: Callable[[Delivery], Awaitable[object]],
    *,
    heavy: bool = False,
) -> None:
    """Queue ``run(delivery)`` behind everything else for the target's chat (in the
    documents' lane if ``heavy``)."""
    outbox = state.outbox
    delivery = Delivery(bot, outbox, state.database, target, heavy=heavy)

    async def job() -> None:
        await run(delivery)

    outbox.submit(target.chat_id, job, heavy=heavy)
