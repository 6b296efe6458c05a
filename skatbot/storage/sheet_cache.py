"""A bounded cache of replayed lists, looked up by everything the replay was computed from.

Replaying a list re-reads its whole log on every booking, although the log only grows. The
cache keeps the last replay per list; ``lists.load`` reads the key (list row, players, row
count and last row id) in its own transaction and takes a cached sheet only when the key is
equal, so the cache can be missing something but never serve a stale list. Entries are offered
after the unit of work commits (``after_commit``), never for a transaction that rolled back.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from skatbot.rules.sheet import LogRow, Sheet

MAX_LISTS = 2048  # ~1,000 active tables with room to spare; a replayed list is a few kB
INFO_KEY = "sheet_cache"
HOOKS_KEY = "after_commit"


class ListRow(Protocol):
    """The list row of a key (``storage.lists.ListInfo``; named by shape, as ``lists``
    imports this module)."""

    @property
    def id(self) -> int: ...


class SheetKey(NamedTuple):
    lst: ListRow
    players: tuple[Hashable, ...]  # storage.lists.PlayerInfo
    row_count: int
    last_row_id: int | None


CachedSheet = tuple[tuple["LogRow", ...], "Sheet"]


class SheetCache:
    """Last replay per list id; thread-safe (units of work run in worker threads)."""

    def __init__(self, max_lists: int = MAX_LISTS) -> None:
        self.max_lists = max_lists
        self._entries: OrderedDict[int, tuple[SheetKey, CachedSheet]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: SheetKey) -> CachedSheet | None:
        with self._lock:
            entry = self._entries.get(key.lst.id)
            if entry is None or entry[0] != key:
                self.misses += 1
                return None
            self._entries.move_to_end(key.lst.id)
            self.hits += 1
            return entry[1]

    def put(self, key: SheetKey, value: CachedSheet) -> None:
        with self._lock:
            self._entries[key.lst.id] = (key, value)
            self._entries.move_to_end(key.lst.id)
            while len(self._entries) > self.max_lists:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


def sheet_cache(session: Session) -> SheetCache | None:
    cache = session.info.get(INFO_KEY)
    return cache if isinstance(cache, SheetCache) else None


def after_commit(session: Session, hook: Callable[[], Any]) -> None:
    """Run ``hook`` once the unit of work of ``session`` has committed (see Database)."""
    session.info.setdefault(HOOKS_KEY, []).append(hook)


def run_after_commit(session: Session) -> None:
    for hook in session.info.pop(HOOKS_KEY, ()):
        hook()
