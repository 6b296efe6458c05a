"""Name claims at a table: ``/ich NAME`` (or "Das bin ich") in the chat of a tournament's or a
league's table does not link the name at once. It is a claim, stored here, until someone the
table trusts confirms it (``usecases.people.persons``): the management of the tournament or
league, or a player of the table already linked to another name of it. A signature then
belongs to the linked name only, so claiming a name never lets anyone sign for another.

``table_of_place`` says whether a place is such a table and who may confirm there.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import BigInteger, DateTime, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now
from skatbot.storage.league_models import League, LeagueTable, MatchDay
from skatbot.storage.lists_models import Player, SheetList
from skatbot.storage.tournament_models import TableLink, Tournament


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


@dataclass(frozen=True)
class TablePlace:
    """A place that plays (or played) a table of a tournament or a league: the names at its
    latest table list, the place of the desk and who manages there (the creator)."""

    names: tuple[str, ...]
    desk: int
    manager: int | None
    management: str  # "die Turnierleitung" or "die Ligaleitung"


def table_of_place(session: Session, place: int) -> TablePlace | None:
    """The latest table list of ``place`` (a tournament's or a league's), or None."""
    tournament = session.execute(
        select(TableLink, SheetList.id)
        .join(SheetList, SheetList.id == TableLink.list_id)
        .where(SheetList.chat_id == place)
        .order_by(SheetList.id.desc())
        .limit(1)
    ).first()
    league = session.execute(
        select(LeagueTable, SheetList.id)
        .join(SheetList, SheetList.id == LeagueTable.list_id)
        .where(SheetList.chat_id == place)
        .order_by(SheetList.id.desc())
        .limit(1)
    ).first()
    if tournament is None and league is None:
        return None
    if league is None or (tournament is not None and tournament[1] > league[1]):
        assert tournament is not None
        link, list_id = tournament
        t = session.get(Tournament, link.tournament_id)
        if t is None:
            return None
        return TablePlace(_names(session, list_id), t.chat_id, t.created_by, "die Turnierleitung")
    table, list_id = league
    day = session.get(MatchDay, table.day_id)
    lg = session.get(League, day.league_id) if day is not None else None
    if lg is None:
        return None
    return TablePlace(_names(session, list_id), lg.chat_id, lg.created_by, "die Ligaleitung")


def _names(session: Session, list_id: int) -> tuple[str, ...]:
    return tuple(
        session.scalars(select(Player.name).where(Player.list_id == list_id).order_by(Player.seat))
    )


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
