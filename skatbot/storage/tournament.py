"""The queries of tournaments (their tables are in tournament_models.py); each takes the
unit of work's Session."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from skatbot.rules.tournament import SeriesResult
from skatbot.storage.tournament_models import (
    Participant,
    Result,
    RosterChange,
    Series,
    TableLink,
    Tournament,
)


@dataclass
class LoadedSeries:
    """A drawn series with its tables and the results that count (latest row per name)."""

    row: Series
    tables: list[list[str]]
    results: dict[str, SeriesResult] = field(default_factory=dict)

    @property
    def number(self) -> int:
        return self.row.number


def tournament_of(session: Session, chat_id: int) -> Tournament | None:
    """The place's latest tournament, running or ended (None: the place is no desk)."""
    return session.scalars(
        select(Tournament).where(Tournament.chat_id == chat_id).order_by(Tournament.id.desc())
    ).first()


def tournaments_of(session: Session, chat_id: int) -> list[Tournament]:
    """Every tournament of the place, the first one first."""
    return list(
        session.scalars(
            select(Tournament).where(Tournament.chat_id == chat_id).order_by(Tournament.id)
        )
    )


def close_tournament(t: Tournament, user_id: int | None) -> None:
    t.closed_at = dt.datetime.now(dt.UTC)
    t.closed_by = user_id


def delete_tournament(session: Session, t: Tournament) -> None:
    """A tournament; the schema takes its participants, roster, series, results and table
    links along (ON DELETE CASCADE). The lists its tables played on stay where they are."""
    session.execute(delete(Tournament).where(Tournament.id == t.id))
    session.expire_all()


def create_tournament(
    session: Session,
    chat_id: int,
    name: str,
    *,
    seed: str,
    user_id: int | None,
    user_name: str,
) -> Tournament:
    last = session.scalar(select(func.max(Tournament.number)).where(Tournament.chat_id == chat_id))
    t = Tournament(
        chat_id=chat_id,
        number=(last or 0) + 1,
        name=name,
        seed=seed,
        games_3=36,
        games_4=48,
        created_by=user_id,
        created_by_name=user_name[:128] or None,
    )
    session.add(t)
    session.flush()
    return t


def participants(session: Session, t: Tournament) -> list[Participant]:
    return list(
        session.scalars(
            select(Participant)
            .where(Participant.tournament_id == t.id)
            .order_by(Participant.position)
        )
    )


def add_participants(session: Session, t: Tournament, names: list[str]) -> None:
    last = session.scalar(
        select(func.max(Participant.position)).where(Participant.tournament_id == t.id)
    )
    position = (last or 0) + 1
    for name in names:
        session.add(Participant(tournament_id=t.id, position=position, name=name))
        position += 1
    session.flush()


def add_late(session: Session, t: Tournament, names: list[str], from_series: int) -> None:
    """Participants arriving after a draw: they play from series ``from_series`` on."""
    add_participants(session, t, names)
    for p in participants(session, t)[-len(names) :]:
        p.from_series = from_series
    session.flush()


def log_roster(
    session: Session,
    t: Tournament,
    name: str,
    action: str,
    series: int,
    *,
    user_id: int | None,
    user_name: str,
    update_id: int | None,
) -> None:
    session.add(
        RosterChange(
            tournament_id=t.id,
            name=name,
            action=action,
            series=series,
            user_id=user_id,
            user_name=user_name[:128] or None,
            update_id=update_id,
        )
    )
    session.flush()


def roster_log(session: Session, t: Tournament) -> list[RosterChange]:
    return list(
        session.scalars(
            select(RosterChange).where(RosterChange.tournament_id == t.id).order_by(RosterChange.id)
        )
    )


def remove_participant(session: Session, p: Participant) -> None:
    session.delete(p)
    session.flush()


def set_series_lengths(t: Tournament, games_3: int, games_4: int) -> None:
    """The games per series at a 3-table and a 4-table (``/serienlaenge``)."""
    t.games_3, t.games_4 = games_3, games_4


def series_rows(session: Session, t: Tournament) -> list[Series]:
    return list(
        session.scalars(select(Series).where(Series.tournament_id == t.id).order_by(Series.number))
    )


def series_count(session: Session, t: Tournament) -> int:
    return session.scalar(select(func.count(Series.id)).where(Series.tournament_id == t.id)) or 0


def load_series(session: Session, t: Tournament) -> list[LoadedSeries]:
    """All series in order, each with the results that count (latest row per name)."""
    rows = series_rows(session, t)
    loaded = {s.id: LoadedSeries(s, json.loads(s.tables)) for s in rows}
    if loaded:
        result = session.execute(
            select(
                Result.series_id,
                Result.name,
                Result.game_points,
                Result.won,
                Result.lost,
                Result.withdrawn,
            )
            .where(Result.series_id.in_(list(loaded)))
            .order_by(Result.id)
        )
        for series_id, name, points, won, lost, withdrawn in result:
            if withdrawn:  # a table's report taken back: no result (until reported again)
                loaded[series_id].results.pop(name, None)
            else:
                loaded[series_id].results[name] = SeriesResult(name, points, won, lost)
    return [loaded[s.id] for s in rows]


def add_series(
    session: Session,
    t: Tournament,
    number: int,
    seed: str,
    tables: list[list[str]],
    *,
    user_id: int | None,
    update_id: int | None,
) -> Series:
    s = Series(
        tournament_id=t.id,
        number=number,
        seed=seed,
        tables=json.dumps(tables, ensure_ascii=False),
        user_id=user_id,
        update_id=update_id,
    )
    session.add(s)
    session.flush()
    return s


def add_results(
    session: Session,
    series: Series,
    results: list[SeriesResult],
    *,
    user_id: int | None,
    update_id: int | None,
) -> None:
    """Append result rows (never updates: a correction is a newer row for the same name)."""
    for r in results:
        session.add(
            Result(
                series_id=series.id,
                name=r.name,
                game_points=r.game_points,
                won=r.won,
                lost=r.lost,
                user_id=user_id,
                update_id=update_id,
            )
        )
    session.flush()


def withdraw_results(
    session: Session,
    series: Series,
    names: list[str],
    *,
    user_id: int | None,
    update_id: int | None,
) -> None:
    """Append rows that take the results of ``names`` back (a table's list was opened again)."""
    for name in names:
        session.add(
            Result(
                series_id=series.id,
                name=name,
                game_points=0,
                won=0,
                lost=0,
                user_id=user_id,
                update_id=update_id,
                withdrawn=True,
            )
        )
    session.flush()


# --- the tables of a series and their lists -----------------------------------------


def add_table_links(
    session: Session, t: Tournament, series: Series, codes: list[str]
) -> list[TableLink]:
    links = [
        TableLink(
            chat_id=t.chat_id,
            tournament_id=t.id,
            series_id=series.id,
            table_no=i,
            code=code,
            signed="{}",
            reported=False,
        )
        for i, code in enumerate(codes, 1)
    ]
    session.add_all(links)
    session.flush()
    return links


def table_links(session: Session, series: Series) -> list[TableLink]:
    return list(
        session.scalars(
            select(TableLink).where(TableLink.series_id == series.id).order_by(TableLink.table_no)
        )
    )


def linked_tables(session: Session, t: Tournament) -> list[TableLink]:
    """The tables of every series of ``t`` that have a chat list linked."""
    return list(
        session.scalars(
            select(TableLink).where(TableLink.tournament_id == t.id, TableLink.list_id.is_not(None))
        )
    )


def table_by_invite(session: Session, invite: str) -> TableLink | None:
    """The table of a deep link's long code, its row locked (as ``table_lists.by_code``)."""
    query = (
        select(TableLink)
        .where(TableLink.invite == invite)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return session.scalars(query).first()


def void_invites(session: Session, t: Tournament, keep_series: int) -> None:
    """The deep links of every earlier series are void (a new draw was made)."""
    session.execute(
        update(TableLink)
        .where(TableLink.tournament_id == t.id, TableLink.series_id != keep_series)
        .values(invite=None)
    )


def table_by_list(session: Session, list_id: int) -> TableLink | None:
    return session.scalars(select(TableLink).where(TableLink.list_id == list_id)).first()


def table_by_id(session: Session, link_id: int) -> TableLink | None:
    return session.get(TableLink, link_id)


def take_back_series(session: Session, series: Series) -> None:
    """A draw taken back: the series with its table links and (empty) table lists."""
    from skatbot.storage.lists_models import SheetList

    lists = [link.list_id for link in table_links(session, series) if link.list_id is not None]
    if lists:
        session.execute(delete(SheetList).where(SheetList.id.in_(lists)))
    session.execute(delete(TableLink).where(TableLink.series_id == series.id))
    session.execute(delete(Result).where(Result.series_id == series.id))
    session.execute(delete(Series).where(Series.id == series.id))
    session.expire_all()


def code_taken(session: Session, code: str) -> bool:
    return session.scalars(select(TableLink.id).where(TableLink.code == code)).first() is not None


def lock_series(session: Session, series_id: int) -> None:
    """Serialise the reports of one series until the end of the transaction: the tables of a
    series report from different chats, so their chat locks do not keep two last reports
    from both missing the other's result (PostgreSQL: the series row ``FOR UPDATE``; a
    statement after it sees what the other report committed; SQLite serialises every writer
    already)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    session.execute(select(Series.id).where(Series.id == series_id).with_for_update())


def series_by_id(session: Session, series_id: int) -> Series | None:
    return session.get(Series, series_id)


def tournament_by_id(session: Session, tournament_id: int) -> Tournament | None:
    return session.get(Tournament, tournament_id)


def signatures(session: Session, t: Tournament) -> dict[int, str]:
    """user id -> the participant name that user signed for at any table of ``t``."""
    out: dict[int, str] = {}
    rows = session.scalars(
        select(TableLink.signed).where(TableLink.tournament_id == t.id).order_by(TableLink.id)
    )
    for signed in rows:
        for name, user in json.loads(signed).items():
            if int(user) > 0:  # 0: signed by the management for a player without a phone
                out[int(user)] = name
    return out


def set_signed(link: TableLink, signed: dict[str, int]) -> None:
    link.signed = json.dumps(signed, ensure_ascii=False, sort_keys=True)


def signed_of(link: TableLink) -> dict[str, int]:
    return {str(k): int(v) for k, v in json.loads(link.signed).items()}
