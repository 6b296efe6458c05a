"""The tables of a seating as one thing, a Preisskat's (``TableLink``) or a league's
(``LeagueTable``): a table of a series with its ``/tisch`` code, the list it plays on, and the
desk it reports to. The two kinds keep their own rows (what only one of them has: the
tournament's signatures and deep links, the league's match day); the questions asked of
both - the table of a list, of a place, of a code - are answered here, as one ``Table``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from sqlalchemy import select
from sqlalchemy.orm import Session

from skatbot.storage.league_models import League, LeagueTable, MatchDay
from skatbot.storage.lists_models import Player, SheetList
from skatbot.storage.tournament_models import Series, TableLink, Tournament


class TableKind(Enum):
    TOURNAMENT = "tournament"  # a Preisskat's drawn table (/auslosen)
    LEAGUE = "league"  # a league match day's seated table (/setzen)


@dataclass(frozen=True)
class Table:
    """One table of a series. ``row`` is the stored row of its kind (a use case links or
    releases the list on it); ``owner`` the tournament's or the match day's id."""

    kind: TableKind
    row: TableLink | LeagueTable
    owner: int  # the tournament (TOURNAMENT) or the match day (LEAGUE)
    series: int  # the series' number, as the draw and the seating name it
    desk: int  # the place of the desk the table reports to
    manager: int | None  # who created the tournament or the league

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def table_no(self) -> int:
        return self.row.table_no

    @property
    def list_id(self) -> int | None:
        return self.row.list_id


def _tournament_table(session: Session, link: TableLink | None) -> Table | None:
    if link is None:
        return None
    t = session.get(Tournament, link.tournament_id)
    series = session.get(Series, link.series_id)
    if t is None or series is None:
        return None
    return Table(TableKind.TOURNAMENT, link, t.id, series.number, t.chat_id, t.created_by)


def _league_table(session: Session, table: LeagueTable | None) -> Table | None:
    if table is None:
        return None
    day = session.get(MatchDay, table.day_id)
    league = session.get(League, day.league_id) if day is not None else None
    if day is None or league is None:
        return None
    return Table(TableKind.LEAGUE, table, day.id, table.series, league.chat_id, league.created_by)


def by_code(session: Session, code: str, *, lock: bool = False) -> Table | None:
    """The table of ``code`` (the codes of both kinds never meet: a league's has seven
    characters from "L", a tournament's six); ``lock``: its row locked (``SELECT … FOR
    UPDATE`` on PostgreSQL, read again after the wait), so two chats linking it at once are
    served one after the other and the second finds it taken. SQLite has one writer."""
    league = select(LeagueTable).where(LeagueTable.code == code)
    tournament = select(TableLink).where(TableLink.code == code)
    if lock:
        league = league.with_for_update().execution_options(populate_existing=True)
        tournament = tournament.with_for_update().execution_options(populate_existing=True)
    found = _league_table(session, session.scalars(league).first())
    return found or _tournament_table(session, session.scalars(tournament).first())


def by_id(session: Session, kind: TableKind, table_id: int) -> Table | None:
    if kind is TableKind.LEAGUE:
        return _league_table(session, session.get(LeagueTable, table_id))
    return _tournament_table(session, session.get(TableLink, table_id))


def of_list(session: Session, list_id: int) -> Table | None:
    """The table that plays on list ``list_id`` (None: an ordinary list)."""
    link = session.scalars(select(TableLink).where(TableLink.list_id == list_id)).first()
    if link is not None:
        return _tournament_table(session, link)
    table = session.scalars(select(LeagueTable).where(LeagueTable.list_id == list_id)).first()
    return _league_table(session, table)


def of_place(session: Session, place: int) -> Table | None:
    """The table of ``place``'s latest table list, of either kind (None: the place never
    played a table)."""
    latest = session.scalars(
        select(SheetList.id)
        .where(
            SheetList.chat_id == place,
            SheetList.id.in_(select(TableLink.list_id).where(TableLink.list_id.is_not(None)))
            | SheetList.id.in_(select(LeagueTable.list_id).where(LeagueTable.list_id.is_not(None))),
        )
        .order_by(SheetList.id.desc())
        .limit(1)
    ).first()
    return of_list(session, latest) if latest is not None else None


def player_names(session: Session, list_id: int) -> tuple[str, ...]:
    """The names of a list in seat order."""
    return tuple(
        session.scalars(select(Player.name).where(Player.list_id == list_id).order_by(Player.seat))
    )
