"""Questions waiting for their answer (``… ja`` or a button), and fingerprints of what they
showed.

A question is stored per place, asker and kind (the command family that answers it, e.g.
``loeschen``); asking again replaces the asker's earlier question of that kind. It holds the
identity of the thing it named (``thing``, e.g. ``list:17``), a fingerprint of that thing's
state when it was asked (``state``), how the question named it (``what``: the answer that
finds it changed says then and now) and the random nonce its button carries.

A fingerprint is a hash of every stored row of the thing and of everything below it (the
rows that point at it through a foreign key, and theirs), so any change shows: a game booked,
corrected or struck, a list closed, a result entered, a participant added. Bookkeeping that
is no data of the thing (the outbox, processed update ids, message links, an open game
builder, the questions themselves) is left out.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Select, Table, delete, false, or_, select
from sqlalchemy.orm import Session

from skatbot.storage.base import utc_now
from skatbot.storage.questions_models import PendingQuestion
from skatbot.storage.schema import metadata


@dataclass(frozen=True)
class Asked:
    """A stored question, as read."""

    id: int
    asker_id: int
    kind: str
    target: str
    state: str
    what: str
    nonce: str
    asked_at: dt.datetime


def _asked(row: PendingQuestion) -> Asked:
    at = row.asked_at if row.asked_at.tzinfo else row.asked_at.replace(tzinfo=dt.UTC)
    return Asked(row.id, row.user_id, row.kind, row.thing, row.state, row.what, row.nonce, at)


def put(
    session: Session,
    chat_id: int,
    asker_id: int,
    kind: str,
    *,
    target: str,
    state: str,
    what: str,
    nonce: str,
) -> None:
    """Store the question (the asker's earlier one of this kind is replaced)."""
    session.execute(
        delete(PendingQuestion).where(
            PendingQuestion.chat_id == chat_id,
            PendingQuestion.user_id == asker_id,
            PendingQuestion.kind == kind,
        )
    )
    session.add(
        PendingQuestion(
            chat_id=chat_id,
            user_id=asker_id,
            kind=kind,
            thing=target,
            state=state,
            what=what,
            nonce=nonce,
            asked_at=utc_now(),
        )
    )
    session.flush()


def of_asker(session: Session, chat_id: int, asker_id: int, kind: str) -> Asked | None:
    row = session.scalar(
        select(PendingQuestion).where(
            PendingQuestion.chat_id == chat_id,
            PendingQuestion.user_id == asker_id,
            PendingQuestion.kind == kind,
        )
    )
    return _asked(row) if row is not None else None


def by_nonce(session: Session, chat_id: int, kind: str, nonce: str) -> Asked | None:
    row = session.scalar(
        select(PendingQuestion).where(
            PendingQuestion.chat_id == chat_id,
            PendingQuestion.kind == kind,
            PendingQuestion.nonce == nonce,
        )
    )
    return _asked(row) if row is not None else None


def asked_by_others(
    session: Session, chat_id: int, asker_id: int, kind: str, since: dt.datetime
) -> bool:
    """Whether someone else has a question of ``kind`` open here (asked after ``since``)."""
    found = session.scalar(
        select(PendingQuestion.id)
        .where(
            PendingQuestion.chat_id == chat_id,
            PendingQuestion.kind == kind,
            PendingQuestion.user_id != asker_id,
            PendingQuestion.asked_at >= since,
        )
        .limit(1)
    )
    return found is not None


def drop(session: Session, question_id: int) -> None:
    session.execute(delete(PendingQuestion).where(PendingQuestion.id == question_id))


def drop_target(session: Session, chat_id: int, target: str) -> None:
    """Forget the questions about ``target`` (it is gone: they quote its names)."""
    session.execute(
        delete(PendingQuestion).where(
            PendingQuestion.chat_id == chat_id, PendingQuestion.thing == target
        )
    )


# --- fingerprints ---------------------------------------------------------------------------

# Bookkeeping, not data of a place, a list or a tournament: changes to these never make a
# question stale.
NOT_DATA = frozenset(
    {
        "pending_questions",
        "processed_updates",
        "outbox",
        "message_links",
        "builders",
        "chats",
        "topics",
    }
)


def _tables() -> list[Table]:
    return [t for t in metadata().sorted_tables if t.name not in NOT_DATA]


def _hash(session: Session, owned: dict[str, Select[tuple[int]]]) -> str:
    digest = hashlib.sha256()
    for table in _tables():
        ids = owned.get(table.name)
        if ids is None:
            continue
        rows = session.execute(select(table).where(table.c.id.in_(ids)).order_by(table.c.id))
        digest.update(table.name.encode())
        for row in rows:
            digest.update(repr(tuple(row)).encode())
    return digest.hexdigest()[:32]


def _below(roots: dict[str, ColumnElement[bool]]) -> dict[str, Select[tuple[int]]]:
    """The ids of the rows each table holds of the thing: the roots' own rows, and every row
    pointing at one of them through a foreign key (parents come first in sorted order)."""
    owned: dict[str, Select[tuple[int]]] = {}
    for table in _tables():
        if "id" not in table.c:
            continue
        conditions = [roots[table.name]] if table.name in roots else []
        for column in table.c:
            for fk in column.foreign_keys:
                parent = fk.column.table.name
                if parent != table.name and parent in owned:
                    conditions.append(column.in_(owned[parent]))
        if conditions:
            owned[table.name] = select(table.c.id).where(or_(*conditions))
    return owned


def place_state(session: Session, chat_id: int) -> str:
    """A fingerprint of everything ``/loeschen`` deletes in the place ``chat_id``."""
    roots = {t.name: t.c.chat_id == chat_id for t in _tables() if "chat_id" in t.c}
    return _hash(session, _below(roots))


def thing_state(session: Session, table_name: str, thing_id: int | None) -> str:
    """A fingerprint of one row of ``table_name`` (a list, a tournament, a tournament
    series …) and everything below it."""
    table = next(t for t in _tables() if t.name == table_name)
    root: ColumnElement[bool] = table.c.id == thing_id if thing_id is not None else false()
    return _hash(session, _below({table_name: root}))
