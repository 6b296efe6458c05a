"""Everything the bot says leaves through a per-chat outbox, paced to Telegram's limits.

An update's effect is committed before anything is sent; then its reply is handed to the
outbox and the update counts as done. Each chat has its own queue, sent strictly in order by
one worker, so one busy group never holds up another:

* Telegram allows about 20 messages a minute in a group. The pacer keeps a sliding window
  per group chat and waits for a free slot before a send (``group_limit`` per
  ``group_window`` seconds), and about 30 messages a second over all chats.
* A 429 answer (``retry_after``) pauses only the chat it was about; its queue waits that long
  and sends the same request again: nothing is dropped, the order is kept.
* 5xx answers and network errors are retried a few times with backoff. A reply that still
  cannot be delivered is logged; it never undoes a booking.

Replies are durable: the update's transaction stores them in the outbox table
(``handlers.durable``, ``storage.outbox``) and a row is deleted once Telegram accepted all of
it. Each send of a row is a numbered step (``Steps``); the id Telegram gave an accepted send
is recorded in the row before the next one is made, so after a restart (``resume``) the
pending rows go out first, in order, and what was accepted before is not sent again.

A reply longer than Telegram's 4,096 characters is cut into several messages at line ends
(``html_split``); a document carries the reply text as its caption when it fits, which
saves a message against the group limit. Replies go to the forum topic the update came from.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import time
import warnings
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, TypeVar

from telegram import Update
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.warnings import PTBUserWarning

from skatbot import faults
from skatbot.handlers import coalesce, durable, rich
from skatbot.handlers.html_split import MAX_CAPTION, fits, split_html
from skatbot.handlers.resilience import file_failed_text, is_topic_closed, topic_closed_note
from skatbot.storage import message_links
from skatbot.storage import outbox as stored
from skatbot.usecases.common.reply import (
    Buttons,
    CloseTopic,
    Document,
    Edit,
    NewTopic,
    Photo,
    Post,
    Reply,
)
from skatbot.usecases.common.rich import RichText

if TYPE_CHECKING:
    from telegram import Bot

    from skatbot.storage.database import Database
    from skatbot.storage.unit import Session

log = logging.getLogger(__name__)

T = TypeVar("T")

SEND_ATTEMPTS = 3  # 5xx and network errors
SEND_BACKOFF = 0.5  # seconds, doubled per attempt
REFUSALS_KEPT = 1000  # Outbox.refusals
MAX_FLOOD_WAITS = 20  # 429 answers in a row before a message is given up
WINDOW_MARGIN = 0.05  # share of the group window added so our window never ends before Telegram's
EDIT_MEMORY = 2048  # (chat, message) pairs whose last edited content we remember
PACED_CHATS = 4096  # groups whose send times the pacer keeps (beyond: those idle for a window)
EDIT_TIMES_KEPT = 4096  # coalesced edits: messages whose last edit time is remembered

# The reply goes out through Bot.do_api_request, which hands back Telegram's JSON instead of a
# telegram.Message: building that Message (~90 attributes) cost ~140 µs per reply here, more
# than a tenth of a booking, and all we read of it is the message id.
SEND = "sendMessage"
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.sendMessage'", category=PTBUserWarning)


@dataclass(frozen=True)
class Target:
    """Where a reply goes: a chat, and in a forum the topic (``None``: no topic/General)."""

    chat_id: int
    thread_id: int | None = None

    def thread_kwargs(self) -> dict[str, int]:
        return {"message_thread_id": self.thread_id} if self.thread_id else {}


def topic_of(message: object) -> int | None:
    """The forum topic of a message. A reply in an ordinary supergroup carries a
    ``message_thread_id`` too (its reply thread); only ``is_topic_message`` means a topic."""
    if getattr(message, "is_topic_message", False):
        thread = getattr(message, "message_thread_id", None)
        return thread if isinstance(thread, int) else None
    return None


def target_of(update: Update) -> Target | None:
    chat = update.effective_chat
    if chat is None:
        return None
    return Target(chat.id, topic_of(update.effective_message))


def markup(rows: Buttons | None) -> Any:
    """The inline keyboard as the Bot API's JSON text (``None`` without buttons).

    PTB passes a string through unchanged; building its InlineKeyboardMarkup and serialising
    it again cost ~55 µs per reply, this ~4 µs for the same bytes.
    """
    if not rows:
        return None
    keyboard = [
        [
            {"text": label, "url": data}
            if data.startswith("https://")
            else {"text": label, "callback_data": data}
            for label, data in row
        ]
        for row in rows
    ]
    return json.dumps({"inline_keyboard": keyboard}, ensure_ascii=False)


def retry_after_seconds(err: RetryAfter) -> float:
    """Telegram's ``retry_after`` in seconds (PTB gives an int or a timedelta)."""
    with warnings.catch_warnings():  # PTB 22.2+ warns that this becomes a timedelta
        warnings.simplefilter("ignore")
        value: object = err.retry_after
    seconds = getattr(value, "total_seconds", None)
    return float(seconds() if callable(seconds) else value)  # type: ignore[arg-type]


class Pacer:
    """Send slots: ``group_limit`` per ``group_window`` seconds in each group chat, and
    ``per_second`` over all chats. ``group_limit=None`` paces nothing (only 429s wait)."""

    def __init__(
        self,
        group_limit: int | None = 20,
        group_window: float = 60.0,
        per_second: float | None = 30.0,
    ) -> None:
        self.group_limit = group_limit
        self.group_window = group_window
        self.per_second = per_second
        # Send times per group, least recently used first; pruned to PACED_CHATS (a group whose
        # window has passed needs no entry).
        self._sent: OrderedDict[int, deque[float]] = OrderedDict()
        self._all: deque[float] = deque()
        self._in_flight = 0
        self._fifo = asyncio.Lock()
        self._blocked: dict[int, float] = {}

    def _sent_lru(self, chat_id: int) -> None:
        self._sent.move_to_end(chat_id)
        if len(self._sent) <= PACED_CHATS:
            return
        stale = time.monotonic() - self.group_window * (1 + WINDOW_MARGIN)
        while len(self._sent) > PACED_CHATS:
            oldest, times = next(iter(self._sent.items()))
            if oldest == chat_id or (times and times[-1] > stale):
                break  # more groups than that sent within the window: all are needed
            del self._sent[oldest]

    def block(self, chat_id: int, seconds: float) -> None:
        """Telegram said 429 for this chat: nothing goes there for ``seconds``."""
        until = time.monotonic() + seconds
        self._blocked[chat_id] = max(self._blocked.get(chat_id, 0.0), until)

    async def wait_unblocked(self, chat_id: int) -> None:
        until = self._blocked.get(chat_id)
        if until is not None:
            delay = until - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            self._blocked.pop(chat_id, None)

    async def slot(self, chat_id: int, *, heavy: bool = False) -> None:
        """Wait for a send slot in ``chat_id`` and take it. Documents and pictures
        (``heavy``) leave a quarter of a group's slots to everything else."""
        await self.wait_unblocked(chat_id)
        if self.group_limit is not None and chat_id < 0:
            sent = self._sent.setdefault(chat_id, deque())
            self._sent_lru(chat_id)
            limit = self.group_limit - (self.group_limit // 4 if heavy else 0)
            # Telegram counts a message when it arrives, a little after we took its slot.
            window = self.group_window * (1 + WINDOW_MARGIN)
            while True:
                now = time.monotonic()
                while sent and sent[0] <= now - window:
                    sent.popleft()
                if len(sent) < max(1, limit):
                    break
                await asyncio.sleep(sent[0] + window - now)
            sent.append(time.monotonic())
        if self.per_second:
            # Counted when a send is answered (as Telegram sees it arrive), and the sends still
            # under way count too: a busy event loop bunches requests up, and slots counted
            # when granted let more than the limit arrive within one second (429s).
            # Chats take the free slots in the order they asked (the lock's waiters are
            # served first come, first served), so under load no group is overtaken for long.
            second = 1.0 + WINDOW_MARGIN
            async with self._fifo:
                while True:
                    now = time.monotonic()
                    while self._all and self._all[0] <= now - second:
                        self._all.popleft()
                    if len(self._all) + self._in_flight < self.per_second:
                        break
                    wait = self._all[0] + second - now if self._all else 0.02
                    await asyncio.sleep(max(wait, 0.005))
                self._in_flight += 1

    def answered(self) -> None:
        """A send that took a slot got its answer (or failed): it counts from now."""
        if self.per_second and self._in_flight > 0:
            self._in_flight -= 1
            self._all.append(time.monotonic())


class Outbox:
    """Per-chat queues of delivery jobs, each chat's jobs run in order by one worker task."""

    def __init__(self, pacer: Pacer | None = None) -> None:
        self.pacer = pacer or Pacer()
        # Two lanes per chat, each worked in order by its own task: documents and pictures
        # (``heavy``) and everything else, so a booking's reply never waits behind a PDF.
        self._queues: dict[tuple[int, bool], deque[Callable[[], Awaitable[None]]]] = {}
        self._workers: dict[tuple[int, bool], asyncio.Task[None]] = {}
        self._idle: asyncio.Condition | None = None
        self._edited: OrderedDict[tuple[int, int], tuple[str | None, Any]] = OrderedDict()
        # Coalesced edits (``Edit.every``): when each message was last edited, the edit
        # waiting for its turn, and the timer that sends it.
        # (LRU, EDIT_TIMES_KEPT: a forgotten time only lets the next edit go at once)
        self._last_edit: OrderedDict[tuple[int, int], float] = OrderedDict()
        self._pending_edit: dict[tuple[int, int], Callable[[], Awaitable[None]]] = {}
        self._edit_timers: dict[tuple[int, int], asyncio.Task[None]] = {}
        self.refusals: deque[tuple[int, int]] = deque(maxlen=REFUSALS_KEPT)
        """(chat id, message id) of the latest sent messages that were refusals
        (``Reply.refusal``): what a refusal is, without reading the text."""
        self.closed = False

    # -- queues ---------------------------------------------------------------------------

    def submit(
        self, chat_id: int, job: Callable[[], Awaitable[None]], *, heavy: bool = False
    ) -> None:
        """Run ``job`` after everything queued before for ``chat_id`` in its lane
        (``heavy``: a reply with documents or pictures)."""
        if self.closed:
            log.warning("outbox closed: a delivery to chat %s is dropped", chat_id)
            return
        key = (chat_id, heavy)
        self._queues.setdefault(key, deque()).append(job)
        if key not in self._workers:
            self._workers[key] = asyncio.get_running_loop().create_task(
                self._work(key), name=f"outbox-{chat_id}{'-heavy' if heavy else ''}"
            )

    async def _work(self, key: tuple[int, bool]) -> None:
        chat_id = key[0]
        queue = self._queues[key]
        try:
            while queue:
                job = queue[0]
                try:
                    await job()
                except asyncio.CancelledError:
                    raise
                except Exception:  # a job never stops the chat's queue
                    log.exception("delivery to chat %s failed", chat_id)
                queue.popleft()
        finally:
            if not queue:
                self._queues.pop(key, None)
            self._workers.pop(key, None)
            await self._notify()

    def busy(self, chat_id: int | None = None) -> bool:
        if chat_id is None:
            return bool(self._workers) or bool(self._edit_timers)
        return (
            (chat_id, False) in self._workers
            or (chat_id, True) in self._workers
            or any(k[0] == chat_id for k in self._edit_timers)
        )

    def coalesce(
        self,
        chat_id: int,
        message_id: int,
        every: float,
        send: Callable[[], Awaitable[None]],
    ) -> bool:
        """An edit of ``message_id`` that may go out at most once per ``every`` seconds.
        True: send it now (the caller does). Otherwise it replaces any edit waiting for the
        message, and a timer queues the waiting one when the time is up."""
        key = (chat_id, message_id)
        now = time.monotonic()
        if key in self._edit_timers:
            self._pending_edit[key] = send
            return False
        last = self._last_edit.get(key)
        if last is None or now - last >= every:
            self._edited_at(key, now)
            return True
        self._pending_edit[key] = send

        async def fire() -> None:
            await asyncio.sleep(last + every - time.monotonic())
            job = self._pending_edit.pop(key)
            self._edited_at(key, time.monotonic())
            self.submit(chat_id, job)
            del self._edit_timers[key]

        self._edit_timers[key] = asyncio.get_running_loop().create_task(fire())
        return False

    def _edited_at(self, key: tuple[int, int], when: float) -> None:
        self._last_edit[key] = when
        self._last_edit.move_to_end(key)
        while len(self._last_edit) > EDIT_TIMES_KEPT:
            self._last_edit.popitem(last=False)

    def pending(self, chat_id: int, *, heavy: bool | None = None) -> int:
        """Jobs queued for ``chat_id`` (in the one lane, or both)."""
        lanes = (False, True) if heavy is None else (heavy,)
        return sum(len(self._queues.get((chat_id, lane), ())) for lane in lanes)

    async def _notify(self) -> None:
        cond = self._condition()
        async with cond:
            cond.notify_all()

    def _condition(self) -> asyncio.Condition:
        if self._idle is None:
            self._idle = asyncio.Condition()
        return self._idle

    async def wait_idle(self, chat_id: int | None = None, timeout: float = 30.0) -> None:
        """Return once nothing is queued for ``chat_id`` (or for any chat)."""
        cond = self._condition()
        async with cond:
            await asyncio.wait_for(cond.wait_for(lambda: not self.busy(chat_id)), timeout)

    async def close(self, grace: float = 5.0) -> None:
        """Deliver what is queued within ``grace`` seconds, then give up (and say how much)."""
        self.closed = True
        for timer in list(self._edit_timers.values()):
            timer.cancel()
        self._edit_timers.clear()
        workers = list(self._workers.values())
        if workers:
            await asyncio.wait(workers, timeout=grace)
        left = sum(len(q) for q in self._queues.values())
        for task in list(self._workers.values()):
            task.cancel()
        for task in workers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if left:
            log.warning(
                "shutting down with %d replies queued (stored ones go out at the next start)", left
            )

    # -- one Bot API request with pacing and retries --------------------------------------

    async def call(
        self,
        chat_id: int,
        request: Callable[[], Awaitable[T]],
        *,
        counts: bool = True,
        heavy: bool = False,
    ) -> T:
        """Run ``request``: after a send slot if it ``counts`` against the group limit; a 429
        pauses this chat and the request is made again; 5xx/network errors are retried."""
        delay = SEND_BACKOFF
        failures = 0
        floods = 0
        while True:
            if counts:
                await self.pacer.slot(chat_id, heavy=heavy)
            else:
                await self.pacer.wait_unblocked(chat_id)
            try:
                return await request()
            except RetryAfter as err:
                floods += 1
                wait = retry_after_seconds(err)
                if floods > MAX_FLOOD_WAITS:
                    raise
                log.info("chat %s: flood control, waiting %.1f s", chat_id, wait)
                self.pacer.block(chat_id, wait)
            except (BadRequest, Forbidden, ChatMigrated):
                raise  # permanent: the same request fails again
            except NetworkError as err:  # 5xx, connection errors, TimedOut
                failures += 1
                if failures >= SEND_ATTEMPTS:
                    raise
                log.info("chat %s: request failed (%s), retrying in %.1f s", chat_id, err, delay)
                await asyncio.sleep(delay)
                delay *= 2
            finally:
                if counts:
                    self.pacer.answered()

    # -- edits that would change nothing are not sent --------------------------------------

    def unchanged(self, chat_id: int, message_id: int, content: tuple[str | None, Any]) -> bool:
        return self._edited.get((chat_id, message_id)) == content

    def remember(self, chat_id: int, message_id: int, content: tuple[str | None, Any]) -> None:
        key = (chat_id, message_id)
        self._edited[key] = content
        self._edited.move_to_end(key)
        while len(self._edited) > EDIT_MEMORY:
            self._edited.popitem(last=False)


# --- the progress of one outbox row ---------------------------------------------------------


class Steps:
    """The sends of one outbox row, numbered in the order the row makes them (a row always
    makes the same sends in the same order: text parts, documents, topics).

    ``send`` makes step k unless the row recorded it as accepted (then it returns the
    recorded message id); an accepted send is written to the row before the next step, in
    the same write as what runs after it (``then``), so no Telegram request happens between
    acceptance and record. ``then`` runs a write unit once per row (``on_sent``, a topic's
    ``on_created``) together with the record; ``finish`` deletes the row.
    """

    def __init__(
        self,
        db: Database,
        row_id: int,
        done: dict[int, int | None] | None = None,
        update_id: int | None = None,
    ) -> None:
        self.db = db
        self.row_id = row_id
        self.update_id = update_id
        self.done: dict[int, int | None] = dict(done or {})
        self._next = 0
        self._dirty = False
        self.finished = False

    def _take(self) -> int:
        k = self._next
        self._next += 1
        return k

    async def send(self, request: Callable[[], Awaitable[int | None]]) -> int | None:
        k = self._take()
        if k in self.done:
            return self.done[k]
        await self.flush()
        sent = await request()
        self.done[k] = sent
        self._dirty = True
        return sent

    async def then(
        self, fn: Callable[[Session], T], *, finish: bool = False
    ) -> tuple[bool, T | None]:
        """Run ``fn`` in a write unit with the record (once: on a replay that recorded it,
        ``(False, None)``). ``finish`` deletes the row in the same unit."""
        k = self._take()
        if k in self.done:
            if finish:
                await self.finish()
            return False, None
        steps = {**self.done, k: None}

        def unit(session: Session) -> T:
            result = fn(session)
            if finish:
                stored.done(session, self.row_id)
            else:
                stored.record(session, self.row_id, steps)
            return result

        result = await self.db.write(unit)
        self.done, self._dirty = steps, False
        self.finished = self.finished or finish
        faults.at("recorded", self.update_id)
        return True, result

    async def flush(self) -> None:
        if not self._dirty or self.finished:
            return
        steps = dict(self.done)
        await self.db.write(lambda session: stored.record(session, self.row_id, steps))
        self._dirty = False
        faults.at("recorded", self.update_id)

    async def finish(self) -> None:
        if self.finished:
            return
        await self.db.write(lambda session: stored.done(session, self.row_id))
        self.finished = True


# --- what a reply becomes on the wire ---------------------------------------------------------


class Delivery:
    """Sends one reply (or edits) for one update; runs inside the chat's outbox worker."""

    def __init__(
        self,
        bot: Bot,
        outbox: Outbox,
        db: Database | None,
        target: Target,
        steps: Steps | None = None,
        *,
        heavy: bool = False,
        link: durable.Link | None = None,
    ) -> None:
        self.bot = bot
        self.outbox = outbox
        self.db = db
        self.target = target
        self.steps = steps  # the outbox row being delivered (None: a reply not stored)
        self.heavy = heavy  # in the documents' lane: paced to leave slots to the rest
        self.link = link  # the booking message the row's reply answers (recorded once sent)

    async def _step(self, send: Callable[[], Awaitable[int | None]]) -> int | None:
        """One send of the row (made once over restarts, see ``Steps``)."""
        if self.steps is None:
            return await send()
        return await self.steps.send(send)

    async def request(self, request: Callable[[Target], Awaitable[T]], *, counts: bool) -> T:
        """One request to the target, paced and retried (see ``_request``)."""
        return await self._request(request, counts=counts)

    async def rich_step(self, request: Callable[[Target], Awaitable[object]]) -> int | None:
        """One rich message of a reply, a step of its outbox row like a text part (made once
        over restarts); returns its message id."""

        async def one() -> int | None:
            result = await self._request(request, counts=True)
            return result.get("message_id") if isinstance(result, dict) else None

        return await self._step(one)

    async def _request(self, request: Callable[[Target], Awaitable[T]], *, counts: bool) -> T:
        """One request to the target; follows a group that became a supergroup, and falls
        back to the chat without topic when the topic was deleted."""
        for _ in range(3):
            target = self.target
            try:
                return await self.outbox.call(
                    target.chat_id,
                    functools.partial(request, target),
                    counts=counts,
                    heavy=self.heavy,
                )
            except ChatMigrated as err:
                log.info("chat %s migrated to %s", target.chat_id, err.new_chat_id)
                self.target = Target(err.new_chat_id, target.thread_id)
            except BadRequest as err:
                if target.thread_id and "thread not found" in err.message.lower():
                    log.info("topic %s of chat %s is gone", target.thread_id, target.chat_id)
                    self.target = Target(target.chat_id)
                    continue
                if target.thread_id and is_topic_closed(err):
                    # Into the General topic, headed by the closed topic's name; the next
                    # reply tries the topic again (it may be reopened by then).
                    log.info("topic %s of chat %s is closed", target.thread_id, target.chat_id)
                    self.target = Target(target.chat_id)
                    note = topic_closed_note(self.bot, target.chat_id, target.thread_id)
                    await self.send_text(note)
                    continue
                raise
        target = self.target
        return await self.outbox.call(
            target.chat_id, functools.partial(request, target), counts=counts, heavy=self.heavy
        )

    async def send_text(self, html: str, buttons: Buttons = ()) -> int | None:
        """Send ``html`` (cut into several messages if needed; the buttons go under the last
        one). Returns the id of the last message. A reply that can be a table (``RichText``)
        goes as a rich message where the server and the chat take it (``handlers.rich``)."""
        if isinstance(html, RichText):
            rich_sent = await rich.send(self, html, markup(buttons))
            if rich_sent is not None:
                return rich_sent
        parts = split_html(html)
        sent: int | None = None
        for i, part in enumerate(parts):
            kwargs: dict[str, Any] = {"text": part, "parse_mode": ParseMode.HTML}
            if buttons and i == len(parts) - 1:
                kwargs["reply_markup"] = markup(buttons)

            async def request(target: Target, kwargs: dict[str, Any] = kwargs) -> object:
                api_kwargs = {"chat_id": target.chat_id, **target.thread_kwargs(), **kwargs}
                return await self.bot.do_api_request(SEND, api_kwargs)

            async def one(request: Callable[[Target], Awaitable[object]] = request) -> int | None:
                result = await self._request(request, counts=True)
                return result.get("message_id") if isinstance(result, dict) else None

            sent = await self._step(one)
        return sent

    async def send_document(
        self, filename: str, data: bytes, caption: str, *, html: bool, buttons: Buttons = ()
    ) -> int | None:
        return await self._send_media(
            self.bot.send_document, filename, data, caption, html, buttons
        )

    async def send_photo(
        self, filename: str, data: bytes, caption: str, *, html: bool, buttons: Buttons = ()
    ) -> int | None:
        """A picture shown in the chat (sendPhoto), like ``send_document``."""
        return await self._send_media(self.bot.send_photo, filename, data, caption, html, buttons)

    async def _send_media(
        self,
        send: Callable[..., Awaitable[object]],
        filename: str,
        data: bytes,
        caption: str,
        html: bool,
        buttons: Buttons,
    ) -> int | None:
        async def request(target: Target) -> object:
            return await send(
                target.chat_id,
                data,
                filename=filename,
                caption=caption or None,
                parse_mode=ParseMode.HTML if html and caption else None,
                reply_markup=markup(buttons),
                message_thread_id=target.thread_id,
            )

        async def one() -> int | None:
            message = await self._request(request, counts=True)
            return getattr(message, "message_id", None)

        return await self._step(one)

    async def send_file(
        self, doc: Document, caption: str, *, html: bool, buttons: Buttons = ()
    ) -> int | None:
        """A document, or a picture if ``doc`` is a ``Photo``."""
        send = self.send_photo if isinstance(doc, Photo) else self.send_document
        return await send(doc.filename, doc.data, caption, html=html, buttons=buttons)

    async def reply(self, reply: Reply, *, finish: bool = False) -> int | None:
        """The reply's text, documents, ``on_sent`` and edits, in this order; then its
        forum topics (``Reply.topics``) and its posts to other places (queued there).
        Returns the id of the (last) message sent, if any. ``finish``: the outbox row is
        done once this reply is (deleted with the last write, see ``Steps.then``)."""
        sent: int | None = None
        try:
            sent = await self._reply_messages(reply)
            if reply.refusal and sent is not None:
                self.outbox.refusals.append((self.target.chat_id, sent))
        except Forbidden as err:  # the bot was removed from the chat or blocked
            log.info("reply to chat %s not allowed: %s", self.target.chat_id, err)
            await self._instead(reply)
            self._queue_posts(reply.posts)
            return None
        except BadRequest as err:
            if reply.instead is not None and "chat not found" in err.message.lower():
                # a user the bot never met at all: as refused as one who never wrote to it
                log.info("reply to chat %s not possible: %s", self.target.chat_id, err)
                await self._instead(reply)
                self._queue_posts(reply.posts)
                return None
            log.warning("reply to chat %s failed: %s", self.target.chat_id, err)
        except TelegramError as err:
            log.warning("reply to chat %s failed: %s", self.target.chat_id, err)
        except Exception:  # not Telegram's answer (e.g. a garbled one): settled, logged once
            log.exception("reply to chat %s failed", self.target.chat_id)
        for gone in reply.gone_topics:  # before the row can finish; deleting twice is harmless
            await self.remove_topic(gone)
        await self._after_sent(reply, sent, finish=finish and not (reply.edits or reply.topics))
        await self.edits(reply.edits)
        for topic in reply.topics:
            await self.new_topic(topic)
        self._queue_posts(reply.posts)
        return sent

    async def _after_sent(self, reply: Reply, sent: int | None, *, finish: bool) -> None:
        """``on_sent`` with the sent message's id, and the row's ``link`` recorded; for a
        stored row in the write that records the sends (once over restarts)."""
        on_sent = reply.on_sent if sent is not None else None
        link, self.link = self.link, None  # the row's first reply only (not its posts)
        message_id = sent or 0

        def unit(session: Session) -> None:
            if on_sent is not None:
                on_sent(session, message_id)
            if link is not None and sent is not None:
                record_link(session, link, sent)

        if self.steps is not None:
            try:
                await self.steps.then(unit, finish=finish)
            except Exception:  # the reply is out; remembering its id is a convenience
                log.exception("on_sent for chat %s failed", self.target.chat_id)
                await self.steps.flush()
            return
        if (on_sent is not None or link is not None) and self.db is not None:
            try:
                await self.db.write(unit)
            except Exception:  # the reply is out; remembering its id is a convenience
                log.exception("on_sent for chat %s failed", self.target.chat_id)

    async def _instead(self, reply: Reply) -> None:
        """Telegram refused ``reply`` (e.g. a private chat the user never started): its
        ``instead`` goes out (stored like a topic's ``on_refused``: once over restarts)."""
        post = reply.instead
        if post is None or self.db is None:
            return
        fallback = post.reply
        try:
            await self._continue(
                lambda _session: fallback, Target(post.chat_id, post.thread_id or None)
            )
        except Exception:
            log.exception("the fallback for chat %s failed", self.target.chat_id)

    def _queue_posts(self, posts: tuple[Post, ...]) -> None:
        """Queue each post behind everything else for its chat."""
        for post in posts:
            other = Delivery(
                self.bot, self.outbox, self.db, Target(post.chat_id, post.thread_id or None)
            )

            async def job(other: Delivery = other, post: Post = post) -> None:
                await other.post(post)

            self.outbox.submit(post.chat_id, job)

    async def post(self, post: Post) -> None:
        """A message to another place (``Reply.posts``), pinned if asked."""
        sent = await self.reply(post.reply)
        if post.pin and sent is not None:
            await self.pin(sent)

    async def pin(self, message_id: int) -> bool:
        """Pin ``message_id`` quietly; False (logged) if Telegram refuses, e.g. without the
        right to pin."""
        try:
            await self.outbox.call(
                self.target.chat_id,
                lambda: self.bot.pin_chat_message(
                    self.target.chat_id, message_id, disable_notification=True
                ),
                counts=False,
            )
        except TelegramError as err:
            log.info("pin in chat %s failed: %s", self.target.chat_id, err)
            return False
        return True

    async def remove_topic(self, topic: CloseTopic) -> None:
        """Delete a forum topic of the bot's; where Telegram refuses, close it."""
        for name, call in (
            ("deleteForumTopic", self.bot.delete_forum_topic),
            ("closeForumTopic", self.bot.close_forum_topic),
        ):
            try:
                await self.outbox.call(
                    topic.chat_id,
                    lambda call=call: call(topic.chat_id, topic.thread_id),  # type: ignore[misc]
                    counts=False,
                )
                return
            except TelegramError as err:
                log.info("%s %s in chat %s refused: %s", name, topic.thread_id, topic.chat_id, err)

    async def new_topic(self, topic: NewTopic) -> None:
        """Create a forum topic and post ``on_created``'s reply there; if Telegram refuses,
        post ``on_refused``'s reply here instead."""
        if self.db is None:
            return

        async def create() -> int | None:
            created = await self.outbox.call(
                topic.chat_id,
                lambda: self.bot.create_forum_topic(topic.chat_id, topic.name),
                counts=False,
            )
            return created.message_thread_id

        try:
            thread = await self._step(create)
        except TelegramError as err:
            log.info("createForumTopic in chat %s refused: %s", topic.chat_id, err)
            if topic.on_refused is not None:
                on_refused = topic.on_refused
                try:
                    await self._continue(lambda session: on_refused(session), self.target)
                except Exception:
                    log.exception("on_refused for chat %s failed", topic.chat_id)
            return
        if thread is None:
            return
        try:
            await self._continue(
                lambda session: topic.on_created(session, thread), Target(topic.chat_id, thread)
            )
        except Exception:  # e.g. the table was linked elsewhere meanwhile
            log.exception("on_created for topic %s of chat %s failed", thread, topic.chat_id)

    async def _continue(self, make: Callable[[Session], Reply], target: Target) -> None:
        """Run ``make`` in a write unit and deliver its reply at ``target``. For a stored row
        its reply is stored too, in that unit, as a row of its own (``make`` runs once over
        restarts; a replay finds that row pending and delivers it)."""
        assert self.db is not None
        if self.steps is None:
            reply = await self.db.write(make)
            await Delivery(self.bot, self.outbox, self.db, target).reply(reply)
            return
        update_id = self.steps.update_id

        def unit(session: Session) -> list[durable.Stored]:
            return durable.store(
                session, target.chat_id, target.thread_id, update_id, make(session)
            )

        ran, rows = await self.steps.then(unit)
        if not ran or not rows:
            return
        first, *posts = rows
        await deliver_stored(self.bot, self.outbox, self.db, first)
        for row in posts:
            submit_stored(self.bot, self.outbox, self.db, row)

    async def _reply_messages(self, reply: Reply) -> int | None:
        docs = list(reply.documents)
        text = reply.text
        caption = _caption(text, docs[0].caption) if docs and reply.on_sent is None else None
        if caption is not None:
            # The short summary rides on the first document (one message less in the group).
            first = docs.pop(0)
            sent = await self._file_or_text(first, caption, html=True, buttons=reply.buttons)
        else:
            sent = await self.send_text(text, reply.buttons) if text else None
        for doc in docs:
            own = doc.caption if fits(escape(doc.caption), MAX_CAPTION) else ""
            await self._file_or_text(doc, own, html=False)
            if doc.caption and not own:
                await self.send_text(escape(doc.caption))
        return sent

    async def _file_or_text(
        self, doc: Document, caption: str, *, html: bool, buttons: Buttons = ()
    ) -> int | None:
        """A document or photo; if it cannot be sent after the last try, its caption goes
        out as a message with a note that the file is missing (the text is never lost)."""
        try:
            return await self.send_file(doc, caption, html=html, buttons=buttons)
        except (Forbidden, RetryAfter):
            raise  # not allowed here at all, or flooded for too long: a message fails too
        except TelegramError as err:
            log.warning("file %s to chat %s failed: %s", doc.filename, self.target.chat_id, err)
        return await self.send_text(file_failed_text(caption, doc.filename, html=html), buttons)

    async def edits(self, edits: tuple[Edit, ...]) -> None:
        """Edit other bot messages; failures (message deleted) are only logged."""
        for edit in edits:
            await self.edit(edit)

    async def edit(self, edit: Edit) -> None:
        if coalesce.superseded(self.outbox, self.target.chat_id, edit):
            return  # a newer edit of the same message is queued: it carries the latest state
        if edit.every > 0:
            later = Delivery(self.bot, self.outbox, self.db, self.target)
            plain = dataclasses.replace(edit, every=0.0)
            if not self.outbox.coalesce(
                self.target.chat_id, edit.message_id, edit.every, lambda: later.edit(plain)
            ):
                return
            edit = plain
        if edit.render is not None:
            if self.db is None:
                return
            render = edit.render
            try:
                text = await self.db.read(lambda session: render(session))
            except Exception:
                log.exception("rendering an edit for chat %s failed", self.target.chat_id)
                return
            if text is None:
                return
            edit = dataclasses.replace(edit, text=text, render=None)
        chat_id = self.target.chat_id
        keyboard = markup(edit.buttons)
        content = (edit.text, keyboard)
        if self.outbox.unchanged(chat_id, edit.message_id, content):
            return  # Telegram would answer "message is not modified"
        text = edit.text
        if text is not None and not fits(text):
            text = split_html(text)[0]  # an edit cannot become two messages

        async def request(target: Target) -> object:
            if text is None:
                return await self.bot.edit_message_reply_markup(
                    target.chat_id, edit.message_id, reply_markup=keyboard
                )
            if isinstance(edit.text, RichText):
                done = await rich.edit(self, target, edit.message_id, edit.text, keyboard)
                if done is not None:
                    return done
            return await self.bot.edit_message_text(
                text,
                target.chat_id,
                edit.message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=keyboard,
            )

        try:
            await self._request(request, counts=False)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            if not isinstance(err, TelegramError):  # e.g. ``result: null``: settled, logged once
                log.error("edit of message %s in chat %s failed: %r", edit.message_id, chat_id, err)
                return
            message = err.message.lower() if isinstance(err, BadRequest) else ""
            if "not modified" in message:
                self.outbox.remember(chat_id, edit.message_id, content)
                return
            log.info("edit of message %s in chat %s failed: %s", edit.message_id, chat_id, err)
            gone = "message to edit not found" in message
            if gone and edit.on_gone is not None and self.db is not None:
                try:
                    await self.db.write(edit.on_gone)
                except Exception:  # forgetting the message is a convenience
                    log.exception("on_gone for message %s failed", edit.message_id)
            return
        self.outbox.remember(chat_id, edit.message_id, content)


def record_link(session: Session, link: durable.Link, sent: int) -> None:
    """The reply to a booking message went out as message ``sent`` (edits of the booking
    message edit it then)."""
    message_links.set_reply(session, link.place, link.message_id, link.update_id, sent)


def _caption(text: str, own: str) -> str | None:
    """The reply text (and the document's own plain caption, if both fit and the text does
    not say it already) as one HTML caption, or ``None`` if the text is too long for a
    caption."""
    if not text or not fits(text, MAX_CAPTION):
        return None
    both = f"{text}\n{escape(own)}" if own and escape(own) not in text else text
    return both if fits(both, MAX_CAPTION) else text


async def deliver_stored(
    bot: Bot,
    outbox: Outbox,
    db: Database,
    row: durable.Stored,
    *,
    done: dict[int, int | None] | None = None,
) -> None:
    """Deliver one outbox row (pinned after sending if it is such a post), then delete it.
    Cancelled (shutdown), the row stays for the next start."""
    steps = Steps(db, row.row_id, done, row.update_id)
    heavy = bool(row.reply.documents)
    target = Target(row.chat_id, row.thread_id)
    d = Delivery(bot, outbox, db, target, steps, heavy=heavy, link=row.link)
    try:
        sent = await d.reply(row.reply, finish=not row.pin)
        if row.pin and sent is not None:
            await d.pin(sent)
    except asyncio.CancelledError:
        raise
    except Exception:
        await steps.finish()  # a row that fails like this would fail again after a restart
        raise
    await steps.finish()


def submit_stored(
    bot: Bot,
    outbox: Outbox,
    db: Database,
    row: durable.Stored,
    *,
    done: dict[int, int | None] | None = None,
) -> None:
    """Queue one outbox row behind everything else for its chat."""

    async def job() -> None:
        await deliver_stored(bot, outbox, db, row, done=done)

    coalesce.note(outbox, row.chat_id, row.reply.edits)  # a newer edit supersedes this one
    outbox.submit(row.chat_id, job, heavy=bool(row.reply.documents))


def enqueue_stored(bot: Bot, bot_data: dict[str, Any], rows: list[durable.Stored]) -> None:
    """Queue the rows an update just stored (``durable.store``), in their order."""
    outbox = outbox_of(bot_data)
    db = bot_data["db"]
    for row in rows:
        submit_stored(bot, outbox, db, row)


async def resume(bot: Bot, bot_data: dict[str, Any]) -> int:
    """Queue every outbox row a previous run left undelivered, oldest first (before any
    update of this run is handled). Returns how many."""
    db = bot_data.get("db")
    if db is None:
        return 0
    outbox = outbox_of(bot_data)
    pending = await db.read(stored.pending)
    for row in pending:
        try:
            reply, pin, link = durable.decode(row.payload, row.blob)
        except (ValueError, KeyError, TypeError):
            log.exception("outbox row %s cannot be read; dropped", row.id)
            await db.write(lambda session, row_id=row.id: stored.done(session, row_id))
            continue
        item = durable.Stored(row.id, row.chat_id, row.thread_id, reply, pin, row.update_id, link)
        submit_stored(bot, outbox, db, item, done=row.steps)
    if pending:
        log.info("outbox: %d replies from the previous run queued", len(pending))
    return len(pending)


def outbox_of(bot_data: dict[str, Any]) -> Outbox:
    outbox = bot_data.get("outbox")
    if not isinstance(outbox, Outbox):
        outbox = bot_data["outbox"] = Outbox()
    return outbox


def enqueue(
    bot: Bot,
    bot_data: dict[str, Any],
    target: Target,
    run: Callable[[Delivery], Awaitable[object]],
    *,
    heavy: bool = False,
) -> None:
    """Queue ``run(delivery)`` behind everything else for the target's chat (in the
    documents' lane if ``heavy``)."""
    outbox = outbox_of(bot_data)
    db = bot_data.get("db")
    delivery = Delivery(bot, outbox, db, target, heavy=heavy)

    async def job() -> None:
        await run(delivery)

    outbox.submit(target.chat_id, job, heavy=heavy)
