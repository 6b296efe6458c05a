"""Where a list lives: a chat, or a forum topic of a chat (docs/rules.md §10).

Everything stored per chat (lists, settings, builders, a tournament) is keyed by a *place*
id, and the use cases see it as ``Command.chat_id``. The chat without topic (and a forum's
"General") is the place whose id is the Telegram chat id itself, so the lists of chats from
before topics existed stay where they are. A forum topic gets a row here, and its place id
is ``TOPIC_PLACE_BASE + row id``: Telegram's chat ids have at most 52 significant bits, so
place ids from 2**53 on can never be a chat's (nor a user's, so a sender id is never one).

A topic's place id never changes: a group that becomes a supergroup moves its topics' rows to
the new chat id (``chats.migrate_chat``), and their data, keyed by place, stays where it is.
/loeschen deletes a place's data, never its topic row.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, DateTime, Integer, UniqueConstraint, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now
from skatbot.storage.lists_models import SheetList

TOPIC_PLACE_BASE = 2**53


class Topic(Base):
    """A forum topic that has a list (or settings) of its own."""

    __tablename__ = "topics"
    # Never reused: a topic's place id is made from its row id.
    __table_args__ = (UniqueConstraint("telegram_chat_id", "thread_id"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Not named chat_id: /loeschen and the group->supergroup move act on every table with a
    # chat_id column, keyed by place; this row is what gives a topic's place its id.
    telegram_chat_id: Mapped[int] = mapped_column(BigInteger)
    thread_id: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


def place_id(session: Session, chat_id: int, thread_id: int) -> int:
    """The place of ``thread_id`` in ``chat_id`` (0: the chat itself), created on first use."""
    if not thread_id:
        return chat_id
    query = select(Topic.id).where(Topic.telegram_chat_id == chat_id, Topic.thread_id == thread_id)
    found = session.scalar(query)
    if found is None:
        try:
            with session.begin_nested():
                session.add(Topic(telegram_chat_id=chat_id, thread_id=thread_id))
        except IntegrityError:  # a concurrent first use inserted it (PostgreSQL): use that
            pass
        found = session.scalar(query)
    assert found is not None
    return TOPIC_PLACE_BASE + found


def is_topic_place(place: int) -> bool:
    """Whether a place id (``Command.chat_id``) is a forum topic's rather than a chat's."""
    return place >= TOPIC_PLACE_BASE


def chat_topic_places(session: Session, chat_id: int) -> list[int]:
    """The place ids of the forum topics of Telegram chat ``chat_id`` known here."""
    ids = session.scalars(
        select(Topic.id).where(Topic.telegram_chat_id == chat_id).order_by(Topic.id)
    ).all()
    return [TOPIC_PLACE_BASE + i for i in ids]


def telegram_of(session: Session, place: int) -> tuple[int, int]:
    """The Telegram chat and forum topic (0: none) of a place: where to post to it."""
    if not is_topic_place(place):
        return place, 0
    topic = session.get(Topic, place - TOPIC_PLACE_BASE)
    if topic is None:
        raise LookupError(f"no topic for place {place}")
    return topic.telegram_chat_id, topic.thread_id


def topics_with_lists(session: Session) -> list[tuple[int, int]]:
    """(Telegram chat, thread) of every forum topic that has a list: the console makes them
    known again in a later session (a topic whose lists are gone, e.g. of a draw taken
    back, stays gone)."""
    # the row id from the place id, not the place id from the row id: Topic.id is an
    # INTEGER column, and PostgreSQL refuses INTEGER + 2**53
    topic_ids = (
        select(SheetList.chat_id - TOPIC_PLACE_BASE)
        .where(SheetList.chat_id >= TOPIC_PLACE_BASE)
        .distinct()
        .scalar_subquery()
    )
    rows = session.execute(
        select(Topic.telegram_chat_id, Topic.thread_id)
        .where(Topic.id.in_(topic_ids))
        .order_by(Topic.telegram_chat_id, Topic.thread_id)
    )
    return [(int(chat), int(thread)) for chat, thread in rows]
