"""SQLAlchemy 2 models of lists: a chat, its lists, their players and rows, and the updates
already processed. A list's rows are an append-only log; nothing derived is stored."""

from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String, Text, func
from sqlalchemy.orm import Mapped, mapped_column

from skatbot.rules.sheet import RowKind
from skatbot.storage.base import NEVER_REUSE_IDS, Base, only_where, str_enum, utc_now


class ListStatus(enum.StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class Chat(Base):
    __tablename__ = "chats"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    rules: Mapped[str] = mapped_column(String(16), default="isko")
    settings: Mapped[str] = mapped_column(Text, default="{}")  # JSON, per-chat options
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class SheetList(Base):
    """One series ("Liste") in a chat. At most one is open per chat."""

    __tablename__ = "lists"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[ListStatus] = mapped_column(str_enum(ListStatus), default=ListStatus.OPEN)
    rules: Mapped[str] = mapped_column(String(16), default="isko")
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    series_length: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(64))
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The list this one continues (/weiter): the series of one evening are a chain of these.
    # A deleted list ends the chain there (SET NULL): /loeschen deletes in any order.
    continues: Mapped[int | None] = mapped_column(
        ForeignKey("lists.id", ondelete="SET NULL"), nullable=True, index=True
    )


class Player(Base):
    __tablename__ = "players"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("lists.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))  # display name; /umbenennen changes only this
    start_points: Mapped[int] = mapped_column(Integer, default=0)


class Row(Base):
    """One log row: a play (game, pass, Ramsch), cancel, dealer override, house-rule event, or
    the list's closing/reopening (``rules.sheet.RowKind``). Never updated, never deleted."""

    __tablename__ = "rows"
    __table_args__ = (
        # Deleting a row looks up the rows naming it: without the index a scan of every
        # list's rows per deleted row (measured: deleting a 49-row list among 200,000 rows
        # took 1.7 s, with it 0.2 ms). Partial: most rows name none, and those cost a
        # booking nothing (a full index: +8 µs per row).
        Index("ix_rows_target", "target", **only_where("target IS NOT NULL")),
        NEVER_REUSE_IDS,
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("lists.id", ondelete="CASCADE"), index=True)
    kind: Mapped[RowKind] = mapped_column(str_enum(RowKind))
    dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    declarer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    announcement: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # The row a cancel or correction acts on (same list).
    target: Mapped[int | None] = mapped_column(
        ForeignKey("rows.id", ondelete="CASCADE"), nullable=True
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    user_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    update_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class ProcessedUpdate(Base):
    """Telegram updates whose effect is committed; the stored reply is resent on redelivery."""

    __tablename__ = "processed_updates"

    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    chat_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    reply: Mapped[str | None] = mapped_column(Text, nullable=True)
    processed_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), default=utc_now, server_default=func.now()
    )
