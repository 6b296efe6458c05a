"""What deleting one list costs in a large database, and what a booking's insert costs.

A SQLite file on disk with N lists of 48 games and a cancel each (~49 N rows). Then: the
time to delete one list (``chats.delete_list``, what /loeschen liste does, in its own write
transaction), and the CPU time of appending one row in a write transaction of its own.

Usage: python bench/deletion.py [N]

Run it with PYTHONPATH set to another tree (``git archive``) for that tree's figures.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from skatbot.rules.sheet import RowKind
from skatbot.storage import chats
from skatbot.storage import lists as lists_store
from skatbot.storage.database import Database, ensure_chat

CHAT = -1001


def fill(session: Any, n: int) -> list[int]:
    ensure_chat(session, CHAT)
    ids = []
    for _ in range(n):
        lst = lists_store.create_list(
            session,
            CHAT,
            ["Anna", "Bernd", "Carla"],
            first_dealer=0,
            series_length=48,
            rules="isko",
            seed="ab12",
            user_id=1,
        )
        last = None
        for g in range(48):
            last = lists_store.append_row(
                session, lst, kind=RowKind.GAME, dealer=g % 3, declarer=(g + 1) % 3,
                announcement="grand ohne 1 hand gewonnen",
            )  # fmt: skip
        assert last is not None
        lists_store.append_row(session, lst, kind=RowKind.CANCEL, target=last.id)
        ids.append(lst.id)
    return ids


def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'bench.db'}")
        db.migrate()
        ids = db.run_write(lambda s: fill(s, n))
        lst = db.run_read(lambda s: lists_store.get_list(s, ids[-1]))
        assert lst is not None
        cpu = []
        for _ in range(2000):
            start = time.process_time()
            db.run_write(
                lambda s: lists_store.append_row(s, lst, kind=RowKind.GAME, dealer=0, declarer=1,
                                          announcement="null gewonnen")
            )  # fmt: skip
            cpu.append((time.process_time() - start) * 1e6)
        wall = []
        for list_id in ids[: min(5, n)]:
            start = time.perf_counter()
            db.run_write(lambda s, i=list_id: chats.delete_list(s, i))
            wall.append((time.perf_counter() - start) * 1e3)
        db.dispose()
    rows = n * 49
    print(f"{n} lists, {rows:,} rows")
    print(f"append one row (own transaction): median {statistics.median(cpu):.0f} µs CPU")
    print(f"delete one list of 49 rows: median {statistics.median(wall):.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)
