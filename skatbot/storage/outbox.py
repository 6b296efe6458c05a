"""The durable outbox: what an update will send, stored with its effect.

Every reply, edit, document and picture an update produces is written as one row (per place
it goes to) in the transaction that commits the update's effect, and the row is deleted once
Telegram accepted the last of it. A row delivers as a fixed sequence of sends (the parts of a
long text, each document, each forum topic to create); the id Telegram gave each accepted
send is recorded in the row right after acceptance (``steps``), so after a restart the
pending rows go out first, in order, and a send recorded as accepted is not made again.

``payload`` is the reply as JSON (``handlers.durable``); ``blob`` holds the documents' bytes
back to back (their lengths are in the payload).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import cast

from sqlalchemy import (
    BigInteger,
    DateTime,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now
from skatbot.storage.prepared import Prepared


class OutboxRow(Base):
    __tablename__ = "outbox"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)  # the order of delivery
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)  # the Telegram chat
    thread_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # forum topic
    update_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    kind: Mapped[str] = mapped_column(String(16))  # "reply" or "post" (pinned after sending)
    payload: Mapped[str] = mapped_column(Text)
    blob: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    steps: Mapped[str] = mapped_column(Text, default="{}")  # {"step": message id} accepted
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


_T = cast(Table, OutboxRow.__table__)
_ADD = Prepared(
    insert(_T)
    .values(
        {
            f: bindparam(f)
            for f in (
                "chat_id",
                "thread_id",
                "update_id",
                "kind",
                "payload",
                "blob",
                "steps",
                "created_at",
            )
        }
    )
    .returning(_T.c.id)
)
_RECORD = Prepared(
    update(_T).where(_T.c.id == bindparam("row_id")).values(steps=bindparam("steps"))
)
_DONE = Prepared(delete(_T).where(_T.c.id == bindparam("row_id")))


@dataclass(frozen=True)
class Pending:
    id: int
    chat_id: int
    thread_id: int | None
    update_id: int | None
    kind: str
    payload: str
    blob: bytes | None
    steps: dict[int, int | None]


def add(
    session: Session,
    *,
    chat_id: int,
    thread_id: int | None,
    update_id: int | None,
    kind: str,
    payload: str,
    blob: bytes | None,
) -> int:
    """Store a row (in the caller's transaction); returns its id."""
    row_id = _ADD.scalar(
        session,
        {
            "chat_id": chat_id,
            "thread_id": thread_id or None,
            "update_id": update_id,
            "kind": kind,
            "payload": payload,
            "blob": blob,
            "steps": "{}",
            "created_at": utc_now(),
        },
    )
    return int(row_id)


def record(session: Session, row_id: int, steps: dict[int, int | None]) -> None:
    """Store the sends of ``row_id`` Telegram accepted so far (step number -> message id)."""
    text = json.dumps({str(k): v for k, v in sorted(steps.items())})
    _RECORD.execute(session, {"row_id": row_id, "steps": text})


def done(session: Session, row_id: int) -> None:
    _DONE.execute(session, {"row_id": row_id})


def pending(session: Session) -> list[Pending]:
    """Every row not delivered yet, oldest first."""
    rows = session.scalars(select(OutboxRow).order_by(OutboxRow.id))
    return [
        Pending(
            r.id,
            r.chat_id,
            r.thread_id,
            r.update_id,
            r.kind,
            r.payload,
            r.blob,
            {int(k): v for k, v in json.loads(r.steps or "{}").items()},
        )
        for r in rows
    ]


def count(session: Session) -> int:
    return len(list(session.scalars(select(OutboxRow.id))))


@dataclass(frozen=True)
class Backlog:
    """How much the outbox holds: its rows and when the oldest was stored."""

    depth: int
    oldest: dt.datetime | None  # UTC; None when empty

    def oldest_age(self, now: dt.datetime | None = None) -> float | None:
        """Seconds since the oldest row was stored (None when empty)."""
        if self.oldest is None:
            return None
        return max(0.0, ((now or utc_now()) - self.oldest).total_seconds())


def backlog(session: Session) -> Backlog:
    """The outbox's depth and its oldest row's time (one query, no payloads read)."""
    depth, oldest = session.execute(select(func.count(_T.c.id), func.min(_T.c.created_at))).one()
    if oldest is not None and oldest.tzinfo is None:  # SQLite keeps no zone: stored as UTC
        oldest = oldest.replace(tzinfo=dt.UTC)
    return Backlog(int(depth), oldest)
