"""The table of questions waiting for their answer (``storage.questions`` reads and writes it;
apart from it so that ``storage.schema`` can collect it without importing the fingerprints,
which need the whole schema)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, DateTime, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from skatbot.storage.base import Base, utc_now


class PendingQuestion(Base):
    __tablename__ = "pending_questions"
    __table_args__ = (
        UniqueConstraint("chat_id", "user_id", "kind", name="uq_pending_questions_asker"),
        Index("ix_pending_questions_nonce", "chat_id", "nonce"),
        # a question's id is never handed out again (SQLite AUTOINCREMENT)
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The place (Command.chat_id). Named chat_id so that /loeschen and group -> supergroup
    # moves (chats.chat_tables) cover this table too.
    chat_id: Mapped[int] = mapped_column(BigInteger)
    user_id: Mapped[int] = mapped_column(BigInteger)  # who asked (0: nobody in particular)
    kind: Mapped[str] = mapped_column(String(32))
    # what the question named, e.g. "list:17" (not a foreign key: a list, a tournament, a
    # place or a game row; a question about a deleted thing is refused, then forgotten)
    thing: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(64))
    what: Mapped[str] = mapped_column(Text)
    nonce: Mapped[str] = mapped_column(String(16))
    asked_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
