"""Who is who in a place (chat or forum topic): people, their spellings and accounts.

A *person* row exists only where someone said something about a name: linked it to a Telegram
account (/ich, "Das bin ich"), merged two spellings (/spieler zusammen) or split them apart
(/spieler trennen). Every other name on a list is matched by its spelling and needs no row.

- ``people``: one row per person known here; ``user_id`` is the linked Telegram account (at
  most one person per account and place, kept so by the use cases); ``merged_into`` points to
  the person this one was merged into (/spieler zusammen) - clearing it undoes the merge
  exactly, with the spellings and the account the row had.
- ``person_names``: the spellings that belong to a person (``key`` = case-folded NFC). A key
  belongs to at most one person of a place; the use cases keep it so (no unique constraint:
  a group's move to a supergroup must never fail on it - the lowest id wins a clash).

Nothing here is derived from the lists: a list keeps its names, and a rename of a linked
name adds the new spelling to the person (usecases.people.persons.after_rename).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now
from skatbot.storage.lists_models import Player, SheetList


class PersonRow(Base):
    __tablename__ = "people"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)  # the place
    name: Mapped[str] = mapped_column(String(64))  # display name
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    user_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    # A deleted person leaves the ones merged into it on their own (SET NULL), as clearing
    # the merge would: /loeschen deletes a place's people in any order.
    merged_into: Mapped[int | None] = mapped_column(
        ForeignKey("people.id", ondelete="SET NULL"), nullable=True, index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class PersonName(Base):
    __tablename__ = "person_names"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(64))  # as written
    key: Mapped[str] = mapped_column(String(128))  # case-folded NFC
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


@dataclass(frozen=True)
class StoredPerson:
    id: int
    name: str
    user_id: int | None
    user_name: str | None
    merged_into: int | None


@dataclass(frozen=True)
class StoredName:
    person_id: int
    name: str
    key: str


@dataclass(frozen=True)
class Book:
    """Everything stored about the people of a place (small: a club has dozens)."""

    people: dict[int, StoredPerson]
    names: list[StoredName]  # oldest first


def book(session: Session, place: int) -> Book:
    people = {
        r.id: StoredPerson(r.id, r.name, r.user_id, r.user_name, r.merged_into)
        for r in session.scalars(select(PersonRow).where(PersonRow.chat_id == place))
    }
    names = [
        StoredName(r.person_id, r.name, r.key)
        for r in session.scalars(
            select(PersonName).where(PersonName.chat_id == place).order_by(PersonName.id)
        )
        if r.person_id in people
    ]
    return Book(people, names)


def add_person(
    session: Session,
    place: int,
    name: str,
    key: str | None,
    *,
    user_id: int | None = None,
    user_name: str | None = None,
) -> int:
    row = PersonRow(chat_id=place, name=name, user_id=user_id, user_name=user_name)
    session.add(row)
    session.flush()
    if key is not None:  # None: the caller moves a spelling to it
        session.add(PersonName(chat_id=place, person_id=row.id, name=name, key=key))
        session.flush()
    return row.id


def add_name(session: Session, place: int, person_id: int, name: str, key: str) -> None:
    session.add(PersonName(chat_id=place, person_id=person_id, name=name, key=key))
    session.flush()


def move_name(session: Session, place: int, key: str, person_id: int) -> None:
    session.execute(
        update(PersonName)
        .where(PersonName.chat_id == place, PersonName.key == key)
        .values(person_id=person_id)
    )


def set_user(session: Session, person_id: int, user_id: int | None, user_name: str | None) -> None:
    session.execute(
        update(PersonRow)
        .where(PersonRow.id == person_id)
        .values(user_id=user_id, user_name=user_name)
    )


def set_merged(session: Session, person_id: int, into: int | None) -> None:
    session.execute(update(PersonRow).where(PersonRow.id == person_id).values(merged_into=into))


def set_display_name(session: Session, person_id: int, name: str) -> None:
    session.execute(update(PersonRow).where(PersonRow.id == person_id).values(name=name))


@dataclass(frozen=True)
class SeenName:
    """A name as it stands on a list of the place (or a tournament's participant list)."""

    name: str
    order: int  # later lists have higher numbers: the latest spelling names a person


def seen_names(session: Session, place: int) -> list[SeenName]:
    """Every player name on the place's lists, and its tournament's participants."""
    from skatbot.storage.league_models import League, LeaguePlayer, LeagueTeam
    from skatbot.storage.tournament_models import Participant, Tournament

    rows = session.execute(
        select(Player.name, SheetList.id)
        .join(SheetList, SheetList.id == Player.list_id)
        .where(SheetList.chat_id == place)
        .order_by(SheetList.id, Player.seat)
    ).all()
    out = [SeenName(name, list_id) for name, list_id in rows]
    parts = session.scalars(
        select(Participant.name)
        .join(Tournament, Tournament.id == Participant.tournament_id)
        .where(Tournament.chat_id == place)
        .order_by(Participant.position)
    ).all()
    out.extend(SeenName(name, 0) for name in parts)  # a desk has no lists: order 0 is fine
    # a league's desk keeps no lists either: its teams' players are its names
    squads = session.scalars(
        select(LeaguePlayer.name)
        .join(LeagueTeam, LeagueTeam.id == LeaguePlayer.team_id)
        .join(League, League.id == LeagueTeam.league_id)
        .where(League.chat_id == place)
        .order_by(LeagueTeam.position, LeaguePlayer.id)
    ).all()
    out.extend(SeenName(name, 0) for name in squads)
    return out
