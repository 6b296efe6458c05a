"""The game builder (buttons under one message): its table and its queries. Its state lives in
the database.

A builder survives restarts and works with several bot instances: every tap reads and writes
its row inside the tap's transaction. ``rows_seen`` is the number of log rows of the list when
the builder was opened; a builder whose list has changed since then is stale and books nothing.
"""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, str_enum, utc_now


class BuilderStatus(enum.StrEnum):
    OPEN = "open"
    DONE = "done"  # booked
    CANCELLED = "cancelled"  # cancelled, replaced by a newer one, or its list changed


class GameBuilder(Base):
    __tablename__ = "builders"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), index=True
    )
    list_id: Mapped[int] = mapped_column(ForeignKey("lists.id", ondelete="CASCADE"), index=True)
    message_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    owner_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    owner_name: Mapped[str] = mapped_column(String(128), default="")
    target_row: Mapped[int | None] = mapped_column(  # the row it corrects
        ForeignKey("rows.id", ondelete="CASCADE"), nullable=True, index=True
    )
    source_message_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    rows_seen: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(
        Text, default="{}"
    )  # JSON, see usecases/sheet/builder/state.py
    status: Mapped[BuilderStatus] = mapped_column(
        str_enum(BuilderStatus), default=BuilderStatus.OPEN
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), default=utc_now, onupdate=utc_now
    )
    # Shown as an ephemeral message to its owner alone (Bot API 10.2): its
    # ``ephemeral_message_id`` (``message_id`` stays null); null for a public builder.
    ephemeral_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


# A builder is read, changed and written inside the tap's transaction.


def create(session: Session, **fields: Any) -> GameBuilder:
    """A new open builder (its id assigned)."""
    b = GameBuilder(**fields, status=BuilderStatus.OPEN)
    session.add(b)
    session.flush()
    return b


def get(session: Session, builder_id: int) -> GameBuilder | None:
    return session.get(GameBuilder, builder_id)


def bind_message(session: Session, builder_id: int, message_id: int) -> None:
    """The builder's message was sent: remember its id (once). A negative id is an
    ephemeral message's (minus its ``ephemeral_message_id``, ``outbox.sender``)."""
    b = session.get(GameBuilder, builder_id)
    if b is None or b.message_id is not None or b.ephemeral_id is not None:
        return
    if message_id < 0:
        b.ephemeral_id = -message_id
    elif message_id > 0:
        b.message_id = message_id


def retire_open(session: Session, chat_id: int, owner_id: int | None) -> list[tuple[int, int]]:
    """Cancel the open builders of ``owner_id`` in the chat; returns their messages (to tell
    them they are replaced) as (id, receiver): a public message's id and 0, or an ephemeral
    message's id and its receiver (the owner)."""
    older = session.scalars(
        select(GameBuilder).where(
            GameBuilder.chat_id == chat_id,
            GameBuilder.owner_id == owner_id,
            GameBuilder.status == BuilderStatus.OPEN,
        )
    ).all()
    messages = []
    for old in older:
        old.status = BuilderStatus.CANCELLED
        if old.message_id is not None:
            messages.append((old.message_id, 0))
        elif old.ephemeral_id is not None and old.owner_id is not None:
            messages.append((old.ephemeral_id, old.owner_id))
    return messages


def open_at_message(session: Session, chat_id: int, message_id: int) -> GameBuilder | None:
    """The open builder shown in message ``message_id`` of the chat."""
    return session.scalars(
        select(GameBuilder).where(
            GameBuilder.chat_id == chat_id,
            GameBuilder.message_id == message_id,
            GameBuilder.status == BuilderStatus.OPEN,
        )
    ).first()


def owner_of(
    session: Session, chat_id: int, *, builder_id: int | None = None, message_id: int | None = None
) -> int | None:
    """Who opened builder ``builder_id`` of the chat, or the open one in ``message_id``."""
    if builder_id is not None:
        b = session.get(GameBuilder, builder_id)
        return b.owner_id if b is not None and b.chat_id == chat_id else None
    return session.scalar(
        select(GameBuilder.owner_id).where(
            GameBuilder.chat_id == chat_id,
            GameBuilder.message_id == message_id,
            GameBuilder.status == BuilderStatus.OPEN,
        )
    )


def save_state(b: GameBuilder, state: str) -> None:
    b.state = state


def finish(b: GameBuilder, status: BuilderStatus) -> None:
    """Close the builder: ``DONE`` (booked) or ``CANCELLED``."""
    b.status = status
