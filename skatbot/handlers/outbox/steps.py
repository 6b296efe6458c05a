"""The progress of one outbox row: its sends, numbered, each recorded once accepted.

After a restart the pending rows go out again; what Telegram accepted before is not sent again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from skatbot import faults
from skatbot.storage import outbox as stored

if TYPE_CHECKING:
    from skatbot.storage.database import Database
    from skatbot.storage.unit import Session

T = TypeVar("T")


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
