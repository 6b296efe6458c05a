"""Repository functions for lists; each takes the unit of work's Session."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from skatbot.rules.house import rules_from_code
from skatbot.rules.sheet import LogRow, RowKind, Sheet, replay
from skatbot.storage.models import Player, ProcessedUpdate, Row, SheetList


@dataclass
class LoadedList:
    """A list with its players and log, and the replayed sheet."""

    lst: SheetList
    players: list[Player]
    rows: list[LogRow]
    sheet: Sheet

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]


def open_list(session: Session, chat_id: int) -> SheetList | None:
    return session.scalars(
        select(SheetList).where(SheetList.chat_id == chat_id, SheetList.status == "open")
    ).first()


def latest_list(session: Session, chat_id: int) -> SheetList | None:
    return session.scalars(
        select(SheetList).where(SheetList.chat_id == chat_id).order_by(SheetList.id.desc())
    ).first()


def to_log(row: Row) -> LogRow:
    return LogRow(
        id=row.id,
        kind=RowKind(row.kind),
        dealer=row.dealer,
        declarer=row.declarer,
        announcement=row.announcement,
        target=row.target,
        seat=row.seat,
    )


def load(session: Session, lst: SheetList) -> LoadedList:
    players = list(
        session.scalars(select(Player).where(Player.list_id == lst.id).order_by(Player.seat))
    )
    # Core rows straight into LogRow: no ORM identity map for a log we only read.
    result = session.execute(
        select(Row.id, Row.kind, Row.dealer, Row.declarer, Row.announcement, Row.target, Row.seat)
        .where(Row.list_id == lst.id)
        .order_by(Row.id)
    )
    rows = [LogRow(r[0], RowKind(r[1]), r[2], r[3], r[4], r[5], r[6]) for r in result]
    sheet = replay(
        [p.name for p in players],
        rows,
        first_dealer=lst.first_dealer,
        series_length=lst.series_length,
        house=rules_from_code(lst.rules),
        start=[p.start_points for p in players],
    )
    return LoadedList(lst, players, rows, sheet)


def create_list(
    session: Session,
    chat_id: int,
    names: list[str],
    *,
    first_dealer: int,
    series_length: int,
    rules: str,
    seed: str,
    user_id: int | None,
) -> SheetList:
    lst = SheetList(
        chat_id=chat_id,
        status="open",
        rules=rules,
        first_dealer=first_dealer,
        series_length=series_length,
        seed=seed,
        created_by=user_id,
    )
    session.add(lst)
    session.flush()
    for seat, name in enumerate(names):
        session.add(Player(list_id=lst.id, seat=seat, name=name))
    session.flush()
    return lst


def append_row(session: Session, lst: SheetList, **fields: object) -> Row:
    row = Row(list_id=lst.id, **fields)
    session.add(row)
    session.flush()
    return row


def close_list(session: Session, lst: SheetList) -> None:
    lst.status = "closed"
    lst.closed_at = dt.datetime.now(dt.UTC)


def processed(session: Session, update_id: int) -> ProcessedUpdate | None:
    return session.get(ProcessedUpdate, update_id)


def mark_processed(session: Session, update_id: int, chat_id: int | None, reply: str) -> None:
    session.add(ProcessedUpdate(update_id=update_id, chat_id=chat_id, reply=reply))
