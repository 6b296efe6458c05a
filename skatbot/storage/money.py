"""Money settings: stakes of a chat's lists, a tournament's fees and prizes.

An append-only log per place (``money_settings``): the latest row of a kind counts, every
change keeps its trail. A stake row applies to the lists of its place from ``from_list`` on
(a list id): setting a stake covers the running list and every later one, and lists before
keep the stake they were played with. Keyed by ``chat_id`` (the place), so /loeschen and the
group → supergroup move find it like every other table with a ``chat_id``.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now

STAKE = "stake"
FEES = "fees"
PRIZES = "prizes"


class MoneySetting(Base):
    __tablename__ = "money_settings"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(16))  # stake | fees | prizes
    from_list: Mapped[int] = mapped_column(Integer, default=0)  # stakes: first list it covers
    value: Mapped[str] = mapped_column(Text)  # JSON
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    update_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


def add(
    session: Session,
    chat_id: int,
    kind: str,
    value: dict[str, Any],
    *,
    from_list: int = 0,
    user_id: int | None = None,
    update_id: int | None = None,
) -> None:
    session.add(
        MoneySetting(
            chat_id=chat_id,
            kind=kind,
            from_list=from_list,
            value=json.dumps(value, sort_keys=True),
            user_id=user_id,
            update_id=update_id,
        )
    )
    session.flush()


def latest(
    session: Session, chat_id: int, kind: str, *, list_id: int | None = None
) -> dict[str, Any] | None:
    """The latest setting of ``kind``; with ``list_id`` the latest that covers that list.
    A row whose value names ``"only": LIST`` (a stake set for one earlier list) covers
    that list alone and is not the chat's current setting."""
    query = select(MoneySetting.value).where(
        MoneySetting.chat_id == chat_id, MoneySetting.kind == kind
    )
    if list_id is not None:
        query = query.where(MoneySetting.from_list <= list_id)
    for raw in session.scalars(query.order_by(MoneySetting.id.desc())):
        data = json.loads(raw)
        if not isinstance(data, dict):
            return None
        if data.get("only") in (None, list_id):
            return data
    return None
