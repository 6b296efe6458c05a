"""Reading a place's lists for the statistics: every list, loaded and replayed."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from skatbot.storage.lists import _LIST_COLUMNS, LISTS, LoadedList, _list_info, load


def place_lists(session: Session, place_id: int, *, closed_only: bool = True) -> list[LoadedList]:
    """The lists of ``place_id`` (a chat or a forum topic), oldest first, with their replayed
    sheets (from the sheet cache where it has them); only closed ones if ``closed_only``."""
    query = select(*_LIST_COLUMNS).where(LISTS.c.chat_id == place_id).order_by(LISTS.c.id)
    if closed_only:
        query = query.where(LISTS.c.status == "closed")
    found = (_list_info(row) for row in session.execute(query))
    return [load(session, lst) for lst in found if lst is not None]
