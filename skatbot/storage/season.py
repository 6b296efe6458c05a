"""What a season is computed from: the place's closed lists (the tournament's series are read
with tournament.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from skatbot.storage.lists import _LIST_COLUMNS, LISTS, ListInfo


def closed_lists(session: Session, place: int) -> list[ListInfo]:
    """The place's closed lists, oldest first."""
    rows = session.execute(
        select(*_LIST_COLUMNS)
        .where(LISTS.c.chat_id == place, LISTS.c.status == "closed")
        .order_by(LISTS.c.id)
    ).all()
    found: list[Any] = list(rows)
    return [ListInfo(*r) for r in found]
