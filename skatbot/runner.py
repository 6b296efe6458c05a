"""Our own long-polling loop with at-least-once delivery.

PTB's stock ``Updater`` confirms a fetched batch (by asking for the next offset) as soon as
the updates are *queued*, before the handlers ran. If the process dies in between, those
updates are lost. ``poll_updates`` instead processes every update of a batch in order with
``await app.process_update(update)`` and only then requests the next batch with
``offset = last processed update_id + 1`` - Telegram confirms an update only after its
effect is done. Within a batch, updates are grouped by chat: the chats run concurrently, each
chat's updates strictly in order (updates without a chat form a group each). Handlers must
therefore be idempotent (an update may be delivered again after a crash); together that
gives exactly-once effects.

Note: handlers registered with ``block=False`` run as background tasks and are not awaited
here, so they do not get this guarantee.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections.abc import Callable
from typing import Any

from telegram import Update
from telegram.error import Conflict, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application

__all__ = ["poll_updates", "run_polling"]

_LOGGER = logging.getLogger(__name__)

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


def _retry_after_seconds(exc: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22.2+ warns that this becomes a timedelta
        warnings.simplefilter("ignore")
        value: Any = exc.retry_after
    if hasattr(value, "total_seconds"):
        return float(value.total_seconds())
    return float(value)


async def _sleep_or_stop(stop: asyncio.Event, seconds: float) -> None:
    """Sleep ``seconds`` but wake up early when ``stop`` is set."""
    if seconds <= 0:
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


async def _until_stop(stop: asyncio.Event, coro: Any) -> tuple[bool, Any]:
    """Run ``coro`` unless ``stop`` gets set first. Returns (finished, result)."""
    task: asyncio.Task[Any] = asyncio.ensure_future(coro)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        task.cancel()
        stopper.cancel()
        raise
    stopper.cancel()
    if task.done():
        return True, task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
    return False, None


def _group_key(update: Update) -> tuple[str, int]:
    chat = update.effective_chat
    return ("chat", chat.id) if chat is not None else ("update", update.update_id)


async def _process_batch(app: AnyApplication, updates: list[Update], stop: asyncio.Event) -> int:
    """Process one batch: chats concurrently, each chat in order. Returns the next offset.

    The returned offset never passes an unprocessed update: if ``stop`` interrupts the batch,
    it is the smallest update id that was not processed (updates above it that were processed
    are redelivered later and book nothing twice).
    """
    groups: dict[tuple[str, int], list[Update]] = {}
    for update in sorted(updates, key=lambda u: u.update_id):
        groups.setdefault(_group_key(update), []).append(update)
    done: set[int] = set()

    async def run_group(group: list[Update]) -> None:
        for update in group:
            if stop.is_set():
                return
            try:
                await app.process_update(update)
            except Exception:
                # process_update hands handler errors to the error handlers (or logs them if
                # there are none); anything arriving here is a bug outside the handlers.
                # Skipping the update is better than retrying a poison update forever.
                _LOGGER.exception("processing update %s failed", update.update_id)
            done.add(update.update_id)

    await asyncio.gather(*(run_group(group) for group in groups.values()))
    pending = [u.update_id for u in updates if u.update_id not in done]
    if pending:
        return min(pending)
    return max(u.update_id for u in updates) + 1


async def poll_updates(
    app: AnyApplication,
    *,
    stop: asyncio.Event,
    timeout: int = 30,
    on_idle: Callable[[], None] | None = None,
    initial_backoff: float = 0.5,
    max_backoff: float = 30.0,
) -> None:
    """Fetch updates with ``getUpdates`` and process them until ``stop`` is set.

    A batch is grouped by chat; the groups run concurrently (``asyncio.gather``), each group
    sequentially, and the next ``getUpdates`` (which confirms the batch) starts only after
    all groups have finished. The offset passed to Telegram only advances past an update
    after ``app.process_update(update)`` has returned, so an update is confirmed only once its
    (blocking) handlers are done. Transient errors (``NetworkError``, ``TimedOut``,
    ``Conflict``, ``RetryAfter``) are retried with capped exponential backoff (``RetryAfter``
    waits the requested time); ``InvalidToken`` is raised. ``on_idle`` is called each time
    the previous batch is completely processed, just before the next long poll starts.

    When ``stop`` is set, the pending long poll is cancelled, at most the update being
    processed in each chat is finished, and the processed updates are confirmed with a last
    short ``getUpdates`` call before returning. Unprocessed updates stay with Telegram.
    """
    offset: int | None = None
    confirmed: int | None = None
    backoff = initial_backoff
    while not stop.is_set():
        if on_idle is not None:
            try:
                on_idle()
            except Exception:
                _LOGGER.exception("on_idle callback failed")
        try:
            finished, updates = await _until_stop(
                stop,
                app.bot.get_updates(
                    offset=offset,
                    timeout=timeout,
                    allowed_updates=Update.ALL_TYPES,
                ),
            )
        except InvalidToken:
            raise
        except RetryAfter as exc:
            wait = _retry_after_seconds(exc)
            _LOGGER.warning("getUpdates: flood control, retrying in %.1f s", wait)
            await _sleep_or_stop(stop, wait)
            continue
        except (NetworkError, Conflict, TelegramError) as exc:
            # NetworkError includes TimedOut and 5xx answers; Conflict = webhook set or a
            # second poller running. All of them may go away, so keep trying.
            _LOGGER.warning("getUpdates failed (%s), retrying in %.1f s", exc, backoff)
            await _sleep_or_stop(stop, backoff)
            backoff = min(max_backoff, backoff * 2)
            continue
        if not finished:
            break
        backoff = initial_backoff
        confirmed = offset
        if updates:
            offset = await _process_batch(app, list(updates), stop)
    if offset is not None and offset != confirmed:
        # Tell Telegram which updates are done, like PTB's Updater does on shutdown.
        try:
            await app.bot.get_updates(offset=offset, timeout=0, limit=1)
        except TelegramError as exc:
            _LOGGER.warning("could not confirm processed updates on shutdown: %s", exc)


async def run_polling(app: AnyApplication, *, stop: asyncio.Event, timeout: int = 30) -> None:
    """Initialize, delete a webhook, start the app, poll until ``stop``, stop, shut down."""
    async with app:
        await app.bot.delete_webhook()
        # PTB's own run_* call post_init; with our loop we must (it registers the command menu).
        if app.post_init is not None:
            await app.post_init(app)
        await app.start()
        try:
            await poll_updates(app, stop=stop, timeout=timeout)
        finally:
            if app.running:
                await app.stop()
