"""What a place is, read in one go: the desk it runs (a tournament, a league), the match day it
hosts and whether its latest list is a table's. ``usecases.common.place_kinds`` decides the
kind from these facts, once per update."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select

from skatbot.storage.league_models import League, LeagueTable, MatchDay
from skatbot.storage.lists_models import SheetList
from skatbot.storage.prepared import Prepared
from skatbot.storage.tournament_models import TableLink, Tournament
from skatbot.storage.unit import Session


@dataclass(frozen=True)
class PlaceFacts:
    tournament: Tournament | None  # the place's latest tournament (it is a Preisskat desk)
    league: League | None  # the place's league (it is a league desk)
    hosted_day: MatchDay | None  # the latest match day this place hosts (/ausrichter)
    table_link: TableLink | None  # the latest list is a tournament table's
    league_table: LeagueTable | None  # the latest list is a league table's


def _latest_id(column: Any, where: Any) -> Any:
    return select(column).where(where).order_by(column.desc()).limit(1).scalar_subquery()


_PLACE: Any = bindparam("place")
_LATEST_LIST = _latest_id(SheetList.id, SheetList.chat_id == _PLACE)
# The ids of the facts, in one prepared statement: a place that keeps lists (every booking)
# has none, and then no ORM query runs at all (five of them cost ~5 ms of a /spiel's ~1 ms).
_FACT_IDS = Prepared(
    select(
        _latest_id(Tournament.id, Tournament.chat_id == _PLACE),
        _latest_id(League.id, League.chat_id == _PLACE),
        _latest_id(MatchDay.id, MatchDay.host_chat_id == _PLACE),
        select(TableLink.id).where(TableLink.list_id == _LATEST_LIST).limit(1).scalar_subquery(),
        select(LeagueTable.id)
        .where(LeagueTable.list_id == _LATEST_LIST)
        .limit(1)
        .scalar_subquery(),
    )
)
_NOTHING = PlaceFacts(None, None, None, None, None)


def facts_of(session: Session, place: int) -> PlaceFacts:
    ids = _FACT_IDS.first(session, {"place": place})
    if ids is None or all(i is None for i in ids):
        return _NOTHING
    tournament, league, hosted, link, table = ids
    return PlaceFacts(
        session.get(Tournament, tournament) if tournament is not None else None,
        session.get(League, league) if league is not None else None,
        session.get(MatchDay, hosted) if hosted is not None else None,
        session.get(TableLink, link) if link is not None else None,
        session.get(LeagueTable, table) if table is not None and link is None else None,
    )
