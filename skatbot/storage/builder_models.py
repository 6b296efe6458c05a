"""The game builder (buttons under one message): its state lives in the database.

A builder survives restarts and works with several bot instances: every tap reads and writes
its row inside the tap's transaction. ``rows_seen`` is the number of log rows of the list when
the builder was opened; a builder whose list has changed since then is stale and books nothing.
"""

from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from skatbot.storage.lists_models import Base, str_enum, utc_now


class BuilderStatus(enum.StrEnum):
    OPEN = "open"
    DONE = "done"  # booked
    CANCELLED = "cancelled"  # cancelled, replaced by a newer one, or its list changed


class GameBuilder(Base):
    __tablename__ = "builders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("chats.id"), index=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("lists.id", ondelete="CASCADE"))
    message_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    owner_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    owner_name: Mapped[str] = mapped_column(String(128), default="")
    target_row: Mapped[int | None] = mapped_column(Integer, nullable=True)  # correction of
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
