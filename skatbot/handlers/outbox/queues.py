"""Per-chat queues: everything the bot says leaves through them, in order, paced.

Each chat has two lanes (documents and pictures, and everything else), each worked strictly
in order by one worker task, so one busy group never holds up another and a booking's reply
never waits behind a PDF. Every Bot API request goes through ``Outbox.call``: after a send
slot of the ``Pacer``; a 429 pauses only its chat and the same request is made again (nothing
is dropped, the order is kept); 5xx answers and network errors are retried a few times with
backoff. A reply that still cannot be delivered is logged; it never undoes a booking.

The outbox also holds what it learns while sending, for as long as the application runs: the
edits of each message (``EditCoalescer``), where rich messages are refused (``RichRefusals``),
whether disabled buttons are (``ButtonSupport``),
the names of forum topics (``TopicNames``) and the latest refusals sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from skatbot.handlers.outbox.coalesce import EditCoalescer
from skatbot.handlers.outbox.ephemeral import EphemeralRefusals
from skatbot.handlers.outbox.keyboard import ButtonSupport
from skatbot.handlers.outbox.pacer import Pacer, retry_after_seconds
from skatbot.handlers.outbox.rich import RichRefusals
from skatbot.handlers.outbox.topics import TopicNames

if TYPE_CHECKING:
    from skatbot.handlers.metrics import Metrics

log = logging.getLogger(__name__)

T = TypeVar("T")

SEND_ATTEMPTS = 3  # 5xx and network errors
SEND_BACKOFF = 0.5  # seconds, doubled per attempt
REFUSALS_KEPT = 1000  # Outbox.refusals
MAX_FLOOD_WAITS = 20  # 429 answers in a row before a message is given up


class Outbox:
    """Per-chat queues of delivery jobs, each chat's jobs run in order by one worker task."""

    def __init__(self, pacer: Pacer | None = None, metrics: Metrics | None = None) -> None:
        self.pacer = pacer or Pacer()
        self.metrics = metrics  # documents delivered are counted there
        # Two lanes per chat, each worked in order by its own task: documents and pictures
        # (``heavy``) and everything else, so a booking's reply never waits behind a PDF.
        self._queues: dict[tuple[int, bool], deque[Callable[[], Awaitable[None]]]] = {}
        self._workers: dict[tuple[int, bool], asyncio.Task[None]] = {}
        self._idle: asyncio.Condition | None = None
        # What the outbox learns while it sends, kept as long as it runs:
        self.edits = EditCoalescer(self.submit)  # which edit of a message goes out
        self.rich_refused = RichRefusals()  # where rich messages are not taken
        self.buttons = ButtonSupport()  # whether the server knows disabled buttons
        self.ephemeral = EphemeralRefusals()  # where answers for one reader are not taken
        self.topic_names = TopicNames()  # for the note in General when a topic is closed
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
            return bool(self._workers) or self.edits.waiting()
        return (
            (chat_id, False) in self._workers
            or (chat_id, True) in self._workers
            or self.edits.waiting(chat_id)
        )

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
        self.edits.close()
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
