"""Which edits of a message go out: of the edits waiting for one message, only the newest.

One ``EditCoalescer`` per outbox holds everything the outbox knows about the edits of a
message, keyed by (chat id, message id):

* Queued edits. Under load (a chat's queue is behind, e.g. the bot is at Telegram's 30
  messages a second) several bookings in a row each queue an edit of the pinned standings.
  Every edit carries the whole standings as they were after its booking, so only the newest
  one matters: the older ones still waiting are skipped when their turn comes (``queued``,
  ``superseded``). Without a backlog each edit is the newest when it runs and goes out at
  once.
* Timed edits (``Edit.every``): a message edited at most once per ``every`` seconds. An edit
  that comes sooner waits, and a newer one replaces it; a timer queues the one waiting when
  the time is up (``due``).
* The content each message was last edited to: an edit that would change nothing is not sent
  (Telegram would answer "message is not modified"; ``unchanged``, ``remember``).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from skatbot.handlers.outbox.ephemeral import edit_key
from skatbot.usecases.common.reply import Edit

EDIT_MEMORY = 2048  # (chat, message) pairs whose last edited content we remember
EDIT_TIMES_KEPT = 4096  # timed edits: messages whose last edit time is remembered

Job = Callable[[], Awaitable[None]]
Key = tuple[int, int]


class EditCoalescer:
    """The edits waiting for each message, and what each message shows (see the module)."""

    def __init__(self, submit: Callable[[int, Job], None]) -> None:
        self._submit = submit  # queue a job for a chat (the outbox's)
        # queued edits: the newest edit (its id) queued for each message
        self._newest: dict[Key, int] = {}
        self.skipped = 0
        """How many queued edits were skipped because a newer one of the message was queued."""
        # timed edits: when each message was last edited, the edit waiting for its turn, and
        # the timer that queues it (LRU, EDIT_TIMES_KEPT: a forgotten time only lets the next
        # edit go at once)
        self._last_edit: OrderedDict[Key, float] = OrderedDict()
        self._waiting: dict[Key, Job] = {}
        self._timers: dict[Key, asyncio.Task[None]] = {}
        self._shown: OrderedDict[Key, tuple[str | None, Any]] = OrderedDict()

    # -- queued edits ---------------------------------------------------------------------

    def queued(self, chat_id: int, edits: Iterable[Edit]) -> None:
        """The edits of a reply just queued for ``chat_id``: each is now its message's newest."""
        for edit in edits:
            if edit.text is not None and edit.render is None and not edit.every:
                self._newest[(chat_id, edit_key(edit))] = id(edit)

    def superseded(self, chat_id: int, edit: Edit) -> bool:
        """True if a newer edit of the same message is queued behind ``edit`` (skip this one)."""
        key = (chat_id, edit_key(edit))
        found = self._newest.get(key)
        if found is None or found == id(edit):
            self._newest.pop(key, None)  # this is the newest: nothing left to coalesce with
            return False
        self.skipped += 1
        return True

    # -- timed edits ----------------------------------------------------------------------

    def due(self, chat_id: int, message_id: int, every: float, send: Job) -> bool:
        """An edit of ``message_id`` that may go out at most once per ``every`` seconds.
        True: send it now (the caller does). Otherwise it replaces any edit waiting for the
        message, and a timer queues the waiting one when the time is up."""
        key = (chat_id, message_id)
        now = time.monotonic()
        if key in self._timers:
            self._waiting[key] = send
            return False
        last = self._last_edit.get(key)
        if last is None or now - last >= every:
            self._edited_at(key, now)
            return True
        self._waiting[key] = send

        async def fire() -> None:
            await asyncio.sleep(last + every - time.monotonic())
            job = self._waiting.pop(key)
            self._edited_at(key, time.monotonic())
            self._submit(chat_id, job)
            del self._timers[key]

        self._timers[key] = asyncio.get_running_loop().create_task(fire())
        return False

    def _edited_at(self, key: Key, when: float) -> None:
        self._last_edit[key] = when
        self._last_edit.move_to_end(key)
        while len(self._last_edit) > EDIT_TIMES_KEPT:
            self._last_edit.popitem(last=False)

    def waiting(self, chat_id: int | None = None) -> bool:
        """A timed edit waits for its turn (in ``chat_id``, or anywhere)."""
        if chat_id is None:
            return bool(self._timers)
        return any(k[0] == chat_id for k in self._timers)

    def close(self) -> None:
        """Shutting down: the timed edits still waiting are dropped."""
        for timer in list(self._timers.values()):
            timer.cancel()
        self._timers.clear()

    # -- edits that would change nothing are not sent --------------------------------------

    def unchanged(self, chat_id: int, message_id: int, content: tuple[str | None, Any]) -> bool:
        return self._shown.get((chat_id, message_id)) == content

    def remember(self, chat_id: int, message_id: int, content: tuple[str | None, Any]) -> None:
        key = (chat_id, message_id)
        self._shown[key] = content
        self._shown.move_to_end(key)
        while len(self._shown) > EDIT_MEMORY:
            self._shown.popitem(last=False)
