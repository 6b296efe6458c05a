"""Which user message booked which row, and which bot message answered it (edited entries).

When a player edits the message of a ``/spiel``, ``/korrigieren`` or ``/eingepasst``, the bot
corrects the booking that message made and edits its own reply (handlers/edits.py). For that it
remembers, per place (``Command.chat_id``: the chat or forum topic) and user message id:

* the update id of the booking: the booked row is the play row of this place's lists stored
  with that update id (rows already keep their update id, so booking writes one small row
  more and nothing else);
* the id of the bot's reply, recorded by the delivery after sending; None until then, or
  if sending failed.

A link is written in the booking's own transaction, so a refused command (rolled back) leaves
none. The log rows themselves stay append-only.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import cast

from sqlalchemy import (
    BigInteger,
    DateTime,
    Index,
    Integer,
    Table,
    bindparam,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from skatbot.rules.sheet import PLAYS
from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now
from skatbot.storage.lists_models import Row, SheetList
from skatbot.storage.prepared import Prepared


class MessageLink(Base):
    __tablename__ = "message_links"
    __table_args__ = (
        Index("ix_message_links_chat_message", "chat_id", "message_id"),
        NEVER_REUSE_IDS,
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The place (Command.chat_id). Named chat_id so that /loeschen and group -> supergroup
    # moves (chats.chat_tables) cover this table too.
    chat_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(BigInteger)  # the user's message
    update_id: Mapped[int] = mapped_column(BigInteger)  # the update that booked
    reply_message_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


LINKS = cast(Table, MessageLink.__table__)
ROWS = cast(Table, Row.__table__)
LISTS = cast(Table, SheetList.__table__)


@dataclass(frozen=True)
class Link:
    chat_id: int
    message_id: int
    update_id: int
    reply_message_id: int | None


_INSERT = Prepared(
    insert(LINKS).values(
        {f: bindparam(f) for f in ("chat_id", "message_id", "update_id", "created_at")}
    )
)
_SET_REPLY = Prepared(
    update(LINKS)
    .where(
        LINKS.c.chat_id == bindparam("chat_id"),
        LINKS.c.message_id == bindparam("message_id"),
        LINKS.c.update_id == bindparam("update_id"),
    )
    .values(reply_message_id=bindparam("reply_message_id"))
)
# The newest link wins: message ids are unique per chat, but a chat moved to a supergroup or
# a hand-made update could repeat one.
_FIND = Prepared(
    select(
        LINKS.c.chat_id,
        LINKS.c.message_id,
        LINKS.c.update_id,
        LINKS.c.reply_message_id,
    )
    .where(LINKS.c.chat_id == bindparam("chat_id"), LINKS.c.message_id == bindparam("message_id"))
    .order_by(LINKS.c.id.desc())
    .limit(1)
)
_BOOKED_ROW = Prepared(
    select(ROWS.c.id, ROWS.c.list_id)
    .join_from(ROWS, LISTS, LISTS.c.id == ROWS.c.list_id)
    .where(
        LISTS.c.chat_id == bindparam("chat_id"),
        ROWS.c.update_id == bindparam("update_id"),
        or_(*(ROWS.c.kind == k for k in PLAYS)),  # no expanding IN (Prepared)
    )
    .order_by(ROWS.c.id)
    .limit(1)
)


def remember(session: Session, chat_id: int, message_id: int, update_id: int) -> None:
    """Link the user's message to the booking of ``update_id``."""
    _INSERT.execute(
        session,
        {
            "chat_id": chat_id,
            "message_id": message_id,
            "update_id": update_id,
            "created_at": utc_now(),
        },
    )


def set_reply(
    session: Session, chat_id: int, message_id: int, update_id: int, reply_message_id: int
) -> None:
    """The bot's reply to the linked message was sent as ``reply_message_id``."""
    _SET_REPLY.execute(
        session,
        {
            "chat_id": chat_id,
            "message_id": message_id,
            "update_id": update_id,
            "reply_message_id": reply_message_id,
        },
    )


def find(session: Session, chat_id: int, message_id: int) -> Link | None:
    row = _FIND.first(session, {"chat_id": chat_id, "message_id": message_id})
    return None if row is None else Link(*row)


def booked_row(session: Session, link: Link) -> tuple[int, int] | None:
    """(row id, list id) of the play row the linked message booked (None: booked nothing)."""
    row = _BOOKED_ROW.first(session, {"chat_id": link.chat_id, "update_id": link.update_id})
    return None if row is None else (int(row[0]), int(row[1]))
