"""What a place is, read in one go: the desk it runs (a tournament, a league), the match day it
hosts and whether its latest list is a table's. ``usecases.common.place_kinds`` decides the
kind from these facts, once per update."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from skatbot.storage.league_models import League, LeagueTable, MatchDay
from skatbot.storage.lists_models import SheetList
from skatbot.storage.tournament_models import TableLink, Tournament
from skatbot.storage.unit import Session


@dataclass(frozen=True)
class PlaceFacts:
    tournament: Tournament | None  # the place's latest tournament (it is a Preisskat desk)
    league: League | None  # the place's league (it is a league desk)
    hosted_day: MatchDay | None  # the latest match day this place hosts (/ausrichter)
    table_link: TableLink | None  # the latest list is a tournament table's
    league_table: LeagueTable | None  # the latest list is a league table's


def facts_of(session: Session, place: int) -> PlaceFacts:
    tournament = session.scalars(
        select(Tournament).where(Tournament.chat_id == place).order_by(Tournament.id.desc())
    ).first()
    league = session.scalars(
        select(League).where(League.chat_id == place).order_by(League.id.desc())
    ).first()
    hosted = session.scalars(
        select(MatchDay).where(MatchDay.host_chat_id == place).order_by(MatchDay.id.desc())
    ).first()
    latest = (
        select(SheetList.id)
        .where(SheetList.chat_id == place)
        .order_by(SheetList.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    link = session.scalars(select(TableLink).where(TableLink.list_id == latest)).first()
    table = None
    if link is None:
        table = session.scalars(select(LeagueTable).where(LeagueTable.list_id == latest)).first()
    return PlaceFacts(tournament, league, hosted, link, table)
