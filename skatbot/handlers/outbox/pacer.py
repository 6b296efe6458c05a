"""Send slots paced to Telegram's limits, and its 429 answers.

Telegram allows about 20 messages a minute in a group. The pacer keeps a sliding window per
group chat and waits for a free slot before a send (``group_limit`` per ``group_window``
seconds), and about 30 messages a second over all chats. A 429 answer (``retry_after``)
blocks only the chat it was about, for that long.
"""

from __future__ import annotations

import asyncio
import time
import warnings
from collections import OrderedDict, deque

from telegram.error import RetryAfter

WINDOW_MARGIN = 0.05  # share of the group window added so our window never ends before Telegram's
PACED_CHATS = 4096  # groups whose send times the pacer keeps (beyond: those idle for a window)


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
