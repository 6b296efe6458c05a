"""Our own long-polling loop with at-least-once delivery.

PTB's stock ``Updater`` confirms fetched updates (by asking for the next offset) as soon as
they are *queued*, before the handlers ran. If the process dies in between, those updates are
lost. Here an update is confirmed only once ``await app.process_update(update)`` has returned
for it and for every update before it: ``offset`` never passes an update that is not done.
Handlers commit their effect and hand their replies to the outbox (``handlers.outbox``)
before they return, so "done" means "committed"; the replies follow at the pace Telegram
allows, without holding up anything.

Updates are dispatched as they arrive: each chat has its own queue, worked strictly in order,
and the chats run concurrently (an update without a chat runs on its own). The poller does
not wait for a chat to finish before fetching more, so one busy chat never stalls another.
While updates are in flight, Telegram hands them out again on the next ``getUpdates`` (they
are not confirmed yet); those are recognised by their id and skipped, and the poller waits
for progress (or a short while) instead of asking again at once. Handlers must be idempotent
(an update may be delivered again after a crash); together that gives exactly-once effects.

An update that PTB cannot read (a field missing or of the wrong type) fails the same way
every time: it is parsed on its own, logged with its id, counted as done (so it is confirmed
and never handed out again) and its chat, if the raw JSON names one, is told once
(``handlers.resilience``). Any other exception of the poller is logged and retried; nothing
but ``InvalidToken`` ends it.

Note: handlers registered with ``block=False`` run as background tasks and are not awaited
here, so they do not get this guarantee.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections import deque
from collections.abc import Callable
from typing import Any

from telegram import Update
from telegram.error import (
    Conflict,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.warnings import PTBUserWarning

from skatbot import faults
from skatbot.handlers.bot_state import SkatApplication
from skatbot.handlers.outbox.pacer import retry_after_seconds
from skatbot.handlers.resilience import parse_update, tell_unreadable, update_id_of

__all__ = ["close_outbox", "poll_updates", "run_polling"]

_LOGGER = logging.getLogger(__name__)
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.getUpdates'", category=PTBUserWarning)


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


BUSY_POLL_INTERVAL = 0.1  # seconds between getUpdates calls while updates are in flight


def _id_of(update: Update | tuple[int, object]) -> int:
    return update.update_id if isinstance(update, Update) else update[0]


GET_UPDATES_READ_MARGIN = 5.0  # seconds the answer to a long poll may take beyond its timeout


async def fetch_updates(
    app: SkatApplication, *, offset: int | None, timeout: int, allowed: Any
) -> list[Update | tuple[int, object]]:
    """One ``getUpdates`` call, each update parsed on its own: one that PTB cannot read
    (``Bot.get_updates`` would raise for the whole batch, again after every restart) comes
    back as ``(update_id, raw JSON)`` to be confirmed and skipped."""
    kwargs: dict[str, Any] = {"timeout": timeout, "allowed_updates": allowed}
    if offset is not None:
        kwargs["offset"] = offset
    raw = await app.bot.do_api_request(
        "getUpdates", api_kwargs=kwargs, read_timeout=timeout + GET_UPDATES_READ_MARGIN
    )
    if not isinstance(raw, list):
        _LOGGER.warning("getUpdates answered %s instead of a list; ignored", type(raw).__name__)
        return []
    out: list[Update | tuple[int, object]] = []
    for data in raw:
        update = parse_update(data, app.bot)
        if update is not None:
            out.append(update)
            continue
        update_id = update_id_of(data)
        if update_id is not None:
            out.append((update_id, data))
    return out


def _group_key(update: Update) -> tuple[str, int]:
    chat = update.effective_chat
    return ("chat", chat.id) if chat is not None else ("update", update.update_id)


class _Dispatcher:
    """Per-chat queues of fetched updates and the offset that may be confirmed."""

    def __init__(self, app: SkatApplication, stop: asyncio.Event) -> None:
        self.app = app
        self.stop = stop
        self.queues: dict[tuple[str, int], deque[Update]] = {}
        self.workers: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.unfinished: set[int] = set()
        self.last_fetched: int | None = None
        self.progress = asyncio.Event()

    @property
    def busy(self) -> bool:
        return bool(self.unfinished)

    def offset(self) -> int | None:
        """The next ``getUpdates`` offset: the oldest update not done yet."""
        if self.unfinished:
            return min(self.unfinished)
        return None if self.last_fetched is None else self.last_fetched + 1

    def add(self, updates: list[Update | tuple[int, object]]) -> int:
        """Queue the updates not fetched before; returns how many were new. An update PTB
        could not read comes as ``(update_id, raw JSON)``: it counts as done at once (it
        would fail the same way every time), and its chat is told."""
        new = 0
        for update in sorted(updates, key=_id_of):
            update_id = _id_of(update)
            if self.last_fetched is not None and update_id <= self.last_fetched:
                continue  # in flight (not confirmed yet) or done out of order
            self.last_fetched = update_id
            if not isinstance(update, Update):
                tell_unreadable(self.app.bot, self.app.bot_data, update[1])
                new += 1
                continue
            self.unfinished.add(update.update_id)
            key = _group_key(update)
            self.queues.setdefault(key, deque()).append(update)
            if key not in self.workers:
                self.workers[key] = asyncio.create_task(self._work(key))
            new += 1
        return new

    async def _work(self, key: tuple[str, int]) -> None:
        queue = self.queues[key]
        try:
            while queue and not self.stop.is_set():
                update = queue.popleft()
                try:
                    await self.app.process_update(update)
                except Exception:
                    # process_update hands handler errors to the error handlers (or logs them
                    # if there are none); anything arriving here is a bug outside the handlers.
                    # Skipping the update is better than retrying a poison update forever.
                    _LOGGER.exception("processing update %s failed", update.update_id)
                self.unfinished.discard(update.update_id)
                self.progress.set()
        finally:
            if not queue:
                self.queues.pop(key, None)
            self.workers.pop(key, None)
            self.progress.set()

    def cancel(self) -> None:
        for task in self.workers.values():
            task.cancel()

    async def drain(self) -> None:
        """Let every chat finish the update it is processing (no new ones start)."""
        if self.workers:
            await asyncio.gather(*self.workers.values(), return_exceptions=True)


async def _wait_any(stop: asyncio.Event, event: asyncio.Event, seconds: float) -> None:
    waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(event.wait())]
    try:
        await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


async def poll_updates(
    app: SkatApplication,
    *,
    stop: asyncio.Event,
    timeout: int = 30,
    on_idle: Callable[[], None] | None = None,
    initial_backoff: float = 0.5,
    max_backoff: float = 30.0,
) -> None:
    """Fetch updates with ``getUpdates`` and process them until ``stop`` is set.

    Updates go to per-chat queues as they arrive (see the module docstring); the offset passed
    to Telegram only advances past an update once it and all before it are processed. Only the
    update types in ``app.bot_data.allowed_updates`` are asked for (all if none).
    Transient errors (``NetworkError``, ``TimedOut``, ``Conflict``, ``RetryAfter``) are retried
    with capped exponential backoff (``RetryAfter`` waits the requested time); ``InvalidToken``
    is raised. ``on_idle`` is called whenever nothing is in flight, just before a long poll.

    When ``stop`` is set, the pending long poll is cancelled, at most the update being
    processed in each chat is finished, and the processed updates are confirmed with a last
    short ``getUpdates`` call before returning. Unprocessed updates stay with Telegram.
    """
    allowed = app.bot_data.allowed_updates or Update.ALL_TYPES
    dispatcher = _Dispatcher(app, stop)
    confirmed: int | None = None
    backoff = initial_backoff
    try:
        while not stop.is_set():
            if on_idle is not None and not dispatcher.busy:
                try:
                    on_idle()
                except Exception:
                    _LOGGER.exception("on_idle callback failed")
            offset = dispatcher.offset()
            dispatcher.progress.clear()
            try:
                finished, updates = await _until_stop(
                    stop,
                    fetch_updates(
                        app,
                        offset=offset,
                        timeout=0 if dispatcher.busy else timeout,
                        allowed=allowed,
                    ),
                )
            except InvalidToken:
                raise
            except RetryAfter as exc:
                wait = retry_after_seconds(exc)
                _LOGGER.warning("getUpdates: flood control, retrying in %.1f s", wait)
                await _sleep_or_stop(stop, wait)
                continue
            except (NetworkError, Conflict, TelegramError) as exc:
                # NetworkError includes TimedOut and 5xx answers; Conflict = webhook set or a
                # second poller running. All of them may go away, so keep trying.
                _LOGGER.warning("getUpdates failed (%s), retrying in %.1f s", exc, backoff)
                await _sleep_or_stop(stop, backoff)
                if not isinstance(exc, TimedOut):
                    # A timeout while thousands of chats are being served is our own event
                    # loop being busy, not Telegram failing: ask again soon, no growing pause.
                    backoff = min(max_backoff, backoff * 2)
                continue
            except Exception:
                # Not Telegram's doing (a garbled answer, a bug of ours): the poller carries on.
                _LOGGER.exception("getUpdates failed, retrying in %.1f s", backoff)
                await _sleep_or_stop(stop, backoff)
                backoff = min(max_backoff, backoff * 2)
                continue
            if not finished:
                break
            backoff = initial_backoff
            if offset is not None and offset != confirmed:
                faults.at("confirmed", offset - 1)  # Telegram forgot the updates before offset
            confirmed = offset
            new = dispatcher.add(list(updates)) if updates else 0
            if dispatcher.busy and not new:
                # Only updates in flight came back: wait until one is done (or a short
                # while, to see other chats' new updates) before asking again.
                await _wait_any(stop, dispatcher.progress, BUSY_POLL_INTERVAL)
    except BaseException:
        dispatcher.cancel()  # cancelled or failed: nothing more is confirmed
        raise
    await dispatcher.drain()
    offset = dispatcher.offset()
    if offset is not None and offset != confirmed:
        # Tell Telegram which updates are done, like PTB's Updater does on shutdown.
        try:
            await app.bot.get_updates(offset=offset, timeout=0, limit=1)
        except TelegramError as exc:
            _LOGGER.warning("could not confirm processed updates on shutdown: %s", exc)


async def close_outbox(app: SkatApplication, grace: float = 10.0) -> None:
    """Deliver the replies still queued (within ``grace`` seconds) before the app stops;
    what is left stays in the outbox table for the next start."""
    pruner, app.bot_data.pruner = app.bot_data.pruner, None
    if pruner is not None:
        pruner.cancel()
    await app.bot_data.outbox.close(grace)


async def run_polling(app: SkatApplication, *, stop: asyncio.Event, timeout: int = 30) -> None:
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
            await close_outbox(app)
            if app.running:
                await app.stop()
