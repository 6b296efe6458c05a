"""Name claims at a table: ``/ich NAME`` (or "Das bin ich") in the chat of a tournament's or a
league's table does not link the name at once. It is a claim, stored here, until someone the
table trusts confirms it (``usecases.people.persons``): the management of the tournament or
league, or a player of the table already linked to another name of it. A signature then
belongs to the linked name only, so claiming a name never lets anyone sign for another.

Whether a place is such a table, and who may confirm there: ``storage.table_lists.of_place``.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, DateTime, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now


class NameClaim(Base):
    """Someone said "I am ``name``" at a table: pending (not linked) until confirmed; once
    ``confirmed_at`` is set, the row records that the link of ``user_id`` to ``name`` here
    was made with the table's consent. A link in a table's place without such a record (made
    before the place became a table, when /ich was free) signs nothing there."""

    __tablename__ = "name_claims"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)  # the place (no foreign key,
    # as ``people``: /loeschen deletes a place's rows in any order)
    name: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[int] = mapped_column(BigInteger)
    user_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    confirmed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


def add_claim(session: Session, place: int, name: str, user_id: int, user_name: str) -> int:
    """A claim of ``user_id`` to ``name`` here (one per account and place: it replaces the
    account's older claim)."""
    drop_claims(session, place, user_id=user_id)
    row = NameClaim(chat_id=place, name=name, user_id=user_id, user_name=user_name[:128])
    session.add(row)
    session.flush()
    return row.id


def claim(session: Session, claim_id: int) -> NameClaim | None:
    """A pending claim (None: unknown, or confirmed already)."""
    row = session.get(NameClaim, claim_id)
    return row if row is not None and row.confirmed_at is None else None


def record_consent(session: Session, place: int, name: str, user_id: int, user_name: str) -> None:
    """The link of ``user_id`` to ``name`` at ``place`` was made with the table's consent."""
    session.add(
        NameClaim(
            chat_id=place,
            name=name,
            user_id=user_id,
            user_name=user_name[:128],
            confirmed_at=utc_now(),
        )
    )
    session.flush()


def consented(session: Session, place: int, user_id: int, name: str) -> bool:
    """Whether ``user_id``'s link to ``name`` at ``place`` was made with the table's consent."""
    rows = session.scalars(
        select(NameClaim.name).where(
            NameClaim.chat_id == place,
            NameClaim.user_id == user_id,
            NameClaim.confirmed_at.is_not(None),
        )
    )
    return any(n.casefold() == name.casefold() for n in rows)


def drop_claims(
    session: Session, place: int, *, user_id: int | None = None, name: str | None = None
) -> None:
    """Forget the pending claims of ``place`` by ``user_id`` and/or for ``name``
    (case-insensitive)."""
    rows = session.scalars(
        select(NameClaim).where(NameClaim.chat_id == place, NameClaim.confirmed_at.is_(None))
    )
    for row in list(rows):
        if user_id is not None and row.user_id != user_id:
            continue
        if name is not None and row.name.casefold() != name.casefold():
            continue
        session.execute(delete(NameClaim).where(NameClaim.id == row.id))
